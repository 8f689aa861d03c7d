package org.arcref.oracle;

import com.fasterxml.jackson.core.JsonFactory;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.arcref.conformance.ConformanceRun;
import org.arcref.trace.OpTraceReader;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsEngine;

/**
 * The spec with one line of its source changed: the mutated file is compiled against the spec's classes and loaded,
 * with all of the spec's other classes, the conformance writer (specs' {@code org.arcref.conformance}), the JSON
 * library it uses (jackson-core), the trace readers it reads with (workloads' {@code org.arcref.trace}) and their zstd
 * decoder (aircompressor), in a class loader of its own, so that the spec in this JVM stays as it is.
 * It writes the conformance output of a trace as {@link ConformanceRun} does, under the trace's settings.
 */
final class SpecMutant implements AutoCloseable {

    private final URLClassLoader loader;
    private final Path dir;

    /**
     * @param file the source file's path under the spec's source root, e.g. {@code org/arcref/zfs/ZfsArc.java}
     * @param original text that occurs exactly once in the file
     * @param replacement what replaces it
     */
    SpecMutant(String file, String original, String replacement) {
        Path sources = Path.of(System.getProperty("oracle.referenceSources", "../reference/src/main/java"));
        try {
            String source = Files.readString(sources.resolve(file), StandardCharsets.UTF_8);
            int at = source.indexOf(original);
            if (at < 0 || source.indexOf(original, at + 1) >= 0) {
                throw new IllegalArgumentException("the mutation's original text must occur exactly once in " + file
                        + ", was \"" + original + "\"");
            }
            dir = Files.createTempDirectory("spec-mutant");
            Path mutated = dir.resolve("src").resolve(file);
            Files.createDirectories(mutated.getParent());
            Files.writeString(mutated, source.substring(0, at) + replacement
                    + source.substring(at + original.length()), StandardCharsets.UTF_8);
            Path classes = Files.createDirectories(dir.resolve("classes"));
            URL spec = locationOf(ZfsArc.class);
            JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
            StringWriter messages = new StringWriter();
            boolean compiled = javac.getTask(messages, null, null, List.of("-d", classes.toString(), "-cp",
                    Path.of(spec.toURI()).toString(), "--release", "17", "-proc:none", "-nowarn"), null,
                    javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)
                            .getJavaFileObjects(mutated.toFile())).call();
            if (!compiled) {
                throw new IllegalArgumentException("the mutant of " + file + " does not compile:\n" + messages);
            }
            loader = new URLClassLoader(new URL[] {classes.toUri().toURL(), spec, locationOf(ConformanceRun.class),
                locationOf(JsonFactory.class), locationOf(OpTraceReader.class), locationOf(ZstdInputStream.class)},
                ClassLoader.getPlatformClassLoader());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the class directory or jar the class was loaded from */
    private static URL locationOf(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    /**
     * @param name the trace's name
     * @param text the trace's text
     * @return the mutant's conformance lines (the operation lines list no headers)
     * @throws InvocationTargetException if the mutant throws
     * @throws IllegalStateException if a class the spec needs is missing from the mutant's class loader (a
     *     {@link LinkageError}: the harness, not the mutant, failed)
     */
    List<String> conform(String name, String text) throws InvocationTargetException {
        return conform(name, text, ZfsEngine.V2_1_1);
    }

    /**
     * @param name the trace's name
     * @param text the trace's text
     * @param engine the engine that runs it, under its default settings and the trace's
     * @return the mutant's conformance lines (the operation lines list no headers)
     * @throws InvocationTargetException if the mutant throws
     * @throws IllegalStateException if a class the spec needs is missing from the mutant's class loader
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<String> conform(String name, String text, ZfsEngine engine) throws InvocationTargetException {
        try {
            Class<?> traces = loader.loadClass("org.arcref.conformance.ConformanceTrace");
            Class<?> settings = loader.loadClass("org.arcref.conformance.ConformanceSettings");
            Class<?> runs = loader.loadClass("org.arcref.conformance.ConformanceRun");
            Class engines = loader.loadClass("org.arcref.zfs.ZfsEngine");
            Object trace = traces.getMethod("read", BufferedReader.class, String.class)
                    .invoke(null, new BufferedReader(new StringReader(text)), name);
            Object applied = traces.getMethod("applySettings", settings)
                    .invoke(trace, settings.getMethod("defaults", engines).invoke(null,
                            Enum.valueOf(engines, engine.name())));
            Object run = runs.getMethod("of", traces, settings, boolean.class).invoke(null, trace, applied, false);
            return (List<String>) runs.getMethod("lines").invoke(run);
        } catch (ReflectiveOperationException e) {
            if (e instanceof InvocationTargetException i) {
                if (i.getCause() instanceof LinkageError missing) {
                    throw new IllegalStateException("the mutant's class loader lacks a class the spec needs: "
                            + missing, missing);
                }
                throw i;
            }
            throw new IllegalStateException("the spec's conformance API changed: " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        loader.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
