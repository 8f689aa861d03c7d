package org.arcref.conformance;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.arcref.trace.Excerpt;
import org.arcref.trace.OpTraceReader;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;

/**
 * An op trace ({@link OpTraceReader}'s format) with the settings it is meant to run under and the
 * trace line of every operation. Settings are comment lines of the form
 * <pre>
 * # conform: arc_c_min=8192 arc_c_max=8192 zfs_multilist_num_sublists=1
 * </pre>
 * that an op-trace reader ignores; each {@code name=value} names a {@link Setting}. The built-in
 * conformance traces are resources of this package, listed in {@code traces/INDEX}, and are named
 * {@code builtin:NAME}.
 *
 * @param name {@code builtin:NAME} or the file's path as given; used in conformance headers and errors
 * @param settings the {@code # conform:} assignments in order
 * @param steps the operations in order, with their line numbers
 * @param sha256 the SHA-256 of the trace's text as lower-case hex: of its lines, each followed by {@code \n}, in
 *     UTF-8 (for a file with {@code \n} line ends and a last line end, {@code sha256sum} of the file)
 */
public record ConformanceTrace(String name, List<Assignment> settings, List<Step> steps, String sha256) {

    /** The prefix of a built-in trace's name. */
    public static final String BUILTIN = "builtin:";
    /** The word after a name in a trace index for a trace the suite runs without the header listing. */
    private static final String WITHOUT_HEADERS = "without-headers";
    /** The index flag that, followed by a release, keeps a trace from that release's oracle. */
    private static final String NO_ORACLE = "no-oracle-";

    /**
     * One operation of the trace.
     *
     * @param line the 1-based line it is written on
     * @param operation the operation
     */
    public record Step(long line, Operation operation) {
    }

    /**
     * One {@code name=value} of a {@code # conform:} line or of the command line.
     *
     * @param line the 1-based line it is written on; 0 for one given on the command line
     * @param setting the setting
     * @param value its value (booleans as 0 or 1)
     */
    public record Assignment(long line, Setting setting, long value) {

        /**
         * @param line the line it is written on (0: the command line)
         * @param text {@code name=value}
         * @return the assignment
         * @throws IllegalArgumentException naming the rule and the text
         */
        public static Assignment parse(long line, String text) {
            int eq = text.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("a setting must be name=value, was " + Excerpt.of(text));
            }
            Setting s = Setting.named(text.substring(0, eq));
            return new Assignment(line, s, s.parse(text.substring(eq + 1)));
        }

        /**
         * @param assignments assignments in order
         * @return each setting's value, the last assignment of a setting winning
         */
        public static Map<Setting, Long> toMap(List<Assignment> assignments) {
            Map<Setting, Long> map = new EnumMap<>(Setting.class);
            for (Assignment a : assignments) {
                map.put(a.setting(), a.value());
            }
            return map;
        }
    }

    /** Copies the lists. */
    public ConformanceTrace {
        settings = List.copyOf(settings);
        steps = List.copyOf(steps);
    }

    /**
     * Applies this trace's settings on top of {@code base}, all at once (a later assignment of the
     * same setting wins).
     *
     * @param base the settings before the trace's own
     * @return the settings the trace runs under
     * @throws TraceFormatException naming the trace and the line of its first {@code # conform:}
     *     assignment if together they make the configuration invalid
     */
    public ConformanceSettings applySettings(ConformanceSettings base) {
        if (settings.isEmpty()) {
            return base;
        }
        try {
            return base.with(Assignment.toMap(settings));
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(name, settings.get(0).line(), e.getMessage());
        }
    }

    /**
     * Finds a trace by name: an existing file, else a built-in trace ({@code NAME} or
     * {@code builtin:NAME}).
     *
     * @param nameOrPath a file path or a built-in name
     * @return the trace
     * @throws UncheckedIOException if it is neither an existing file nor a built-in name
     * @throws TraceFormatException naming the file and line of a bad line
     */
    public static ConformanceTrace find(String nameOrPath) {
        Path path = Path.of(nameOrPath);
        if (!nameOrPath.startsWith(BUILTIN) && Files.exists(path)) {
            return read(path);
        }
        String name = nameOrPath.startsWith(BUILTIN) ? nameOrPath.substring(BUILTIN.length()) : nameOrPath;
        if (allBuiltinNames().contains(name)) {
            return builtin(name);
        }
        throw new UncheckedIOException("trace must be an existing file or one of the " + allBuiltinNames().size()
                + " built-in traces (arc conform --list names them), was " + Excerpt.of(nameOrPath),
                new FileNotFoundException(nameOrPath));
    }

    /**
     * @param path an op trace file, plain or gzip
     * @return the trace, named by the path
     * @throws UncheckedIOException if it cannot be read
     * @throws TraceFormatException naming the file and line of a bad line
     */
    public static ConformanceTrace read(Path path) {
        try (BufferedReader in = TraceFile.open(path)) {
            return read(in, path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("trace file", path.toString(), e), e);
        }
    }

    /** @return the names of zfs-2.1.1's engine's built-in traces, in the order of {@code traces/INDEX} */
    public static List<String> builtinNames() {
        return builtinNames(ZfsEngine.V2_1_1);
    }

    /**
     * The built-in traces written for an engine: zfs-2.1.1's in {@code traces/INDEX}, zfs-2.2.0's (data and
     * metadata, the fractions, its fixes) in {@code traces/INDEX-2.2.0}. Names are unique across both.
     *
     * @param engine an engine
     * @return the names of its built-in traces, in index order
     */
    public static List<String> builtinNames(ZfsEngine engine) {
        return List.copyOf(index(indexFile(engine)).keySet());
    }

    /** @return every built-in trace's name, zfs-2.1.1's engine's first */
    public static List<String> allBuiltinNames() {
        List<String> all = new ArrayList<>();
        for (ZfsEngine e : ZfsEngine.values()) {
            all.addAll(builtinNames(e));
        }
        return all;
    }

    /**
     * Whether the project's suite runs a built-in trace with every header listed ({@code --headers}): all but
     * those whose index line adds {@value #WITHOUT_HEADERS} after the name, traces that keep so many headers live
     * that the listing would make their output hundreds of megabytes ({@code evict-adj-highbit64}). Their plain
     * output still carries every state's sizes, the fractions and the evictions of every operation.
     *
     * @param name a name from {@link #allBuiltinNames()}
     * @return false if its index line says {@value #WITHOUT_HEADERS}
     * @throws IllegalArgumentException if there is no such trace
     */
    public static boolean suiteListsHeaders(String name) {
        return !flags(name).contains(WITHOUT_HEADERS);
    }

    /**
     * Whether the oracle module compares a built-in trace with a release's {@code arc.c}: yes, unless the trace's
     * index line names that release with {@value #NO_ORACLE}{@code RELEASE} after the name, because the release's
     * {@code arc.c}, built with its assertions on as the oracle builds it, stops on an assertion the trace reaches
     * ({@code meta-balance-1}: 2.2.11's {@code ASSERT3U(down, <=, frac)}, docs/scope.md).
     *
     * @param name a name from {@link #allBuiltinNames()}
     * @param release a release
     * @return false if the trace's index line says {@value #NO_ORACLE} and the release's version
     * @throws IllegalArgumentException if there is no such trace
     */
    public static boolean oracleJudges(String name, ZfsRelease release) {
        return !flags(name).contains(NO_ORACLE + release.version());
    }

    private static String indexFile(ZfsEngine engine) {
        return engine == ZfsEngine.V2_1_1 ? "INDEX" : "INDEX-" + engine.version();
    }

    /** @return the words after the name on the trace's index line */
    private static Set<String> flags(String name) {
        requireBuiltin(name);
        for (ZfsEngine e : ZfsEngine.values()) {
            Set<String> flags = index(indexFile(e)).get(name);
            if (flags != null) {
                return flags;
            }
        }
        throw new IllegalStateException("no index line names " + name);
    }

    /** Each index file's lines, read once: name, then its flags. */
    private static final Map<String, Map<String, Set<String>>> INDEXES = new ConcurrentHashMap<>();

    /**
     * @return an index file's lines, in order: each line is a name, maybe followed by flags, each
     *     {@value #WITHOUT_HEADERS} or {@value #NO_ORACLE} and a release of the engine
     */
    private static Map<String, Set<String>> index(String file) {
        return INDEXES.computeIfAbsent(file, ConformanceTrace::readIndex);
    }

    private static Map<String, Set<String>> readIndex(String file) {
        Map<String, Set<String>> names = new LinkedHashMap<>();
        for (String line : indexLines(file)) {
            String[] words = line.split(" ");
            Set<String> flags = new LinkedHashSet<>(Arrays.asList(words).subList(1, words.length));
            for (String flag : flags) {
                if (!flag.equals(WITHOUT_HEADERS) && !(flag.startsWith(NO_ORACLE)
                        && ZfsRelease.of(flag.substring(NO_ORACLE.length())).isPresent())) {
                    throw new IllegalStateException("a line of the built-in trace index " + file + " must be a "
                            + "name, maybe followed by " + WITHOUT_HEADERS + " and " + NO_ORACLE + "RELEASE, was "
                            + Excerpt.of(line));
                }
            }
            names.put(words[0], Set.copyOf(flags));
        }
        return names;
    }

    /** @return an index file's non-blank lines, stripped, with single spaces between words */
    private static List<String> indexLines(String file) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = resource(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    lines.add(String.join(" ", line.strip().split("\\s+")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in trace index: " + e.getMessage(), e);
        }
        return lines;
    }

    /**
     * @param name a name from {@link #allBuiltinNames()}
     * @return the built-in trace, named {@code builtin:NAME}
     * @throws IllegalArgumentException if there is no such trace
     */
    public static ConformanceTrace builtin(String name) {
        requireBuiltin(name);
        try (BufferedReader in = resource(name + ".ops")) {
            return read(in, BUILTIN + name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in trace " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param name a name from {@link #allBuiltinNames()}
     * @return the built-in trace's text exactly as its resource holds it (its lines each end in {@code \n}, so the
     *     SHA-256 of this text is the trace's {@link #sha256()})
     * @throws IllegalArgumentException if there is no such trace
     */
    public static String builtinText(String name) {
        requireBuiltin(name);
        try (BufferedReader in = resource(name + ".ops")) {
            StringBuilder text = new StringBuilder();
            char[] buffer = new char[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                text.append(buffer, 0, n);
            }
            return text.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in trace " + name + ": " + e.getMessage(), e);
        }
    }

    private static void requireBuiltin(String name) {
        if (!allBuiltinNames().contains(name)) {
            throw new IllegalArgumentException("built-in trace must be one of " + allBuiltinNames() + ", was "
                    + Excerpt.of(name));
        }
    }

    private static BufferedReader resource(String file) {
        InputStream in = ConformanceTrace.class.getResourceAsStream("traces/" + file);
        if (in == null) {
            throw new UncheckedIOException("missing resource org/arcref/conformance/traces/" + file,
                    new FileNotFoundException(file));
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * Reads a trace from text.
     *
     * @param in the text
     * @param name the trace's name, also used in error messages
     * @return the trace
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the trace and line of a bad line
     */
    public static ConformanceTrace read(BufferedReader in, String name) throws IOException {
        List<Assignment> settings = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        MessageDigest digest = sha256Digest();
        long number = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            number++;
            digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
            int hash = line.indexOf('#');
            String text = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (hash >= 0) {
                String comment = line.substring(hash + 1).strip();
                if (comment.startsWith("conform:")) {
                    Set<Setting> onThisLine = EnumSet.noneOf(Setting.class);
                    for (String a : comment.substring("conform:".length()).strip().split("\\s+")) {
                        Assignment assignment = assignment(a, name, number);
                        if (!onThisLine.add(assignment.setting())) {
                            throw new TraceFormatException(name, number, "a setting may be given once on a "
                                    + "'# conform:' line, " + assignment.setting().zfsName() + " was given twice");
                        }
                        settings.add(assignment);
                    }
                }
            }
            if (!text.isEmpty()) {
                try {
                    steps.add(new Step(number, OpTraceReader.parseLine(text)));
                } catch (TraceFormatException e) {
                    throw new TraceFormatException(name, number, e.problem());
                }
            }
        }
        return new ConformanceTrace(name, settings, steps, HexFormat.of().formatHex(digest.digest()));
    }

    /**
     * Writes a trace that runs operations under given settings: one {@code # conform:} line naming every
     * {@link Setting} of the settings' engine (so the text means the same whatever the defaults), then one operation
     * per line, so that
     * operation {@code i} (from 0) is on line {@code i + 2}. Quirk fixes are not settings and are not written.
     *
     * @param settings the settings
     * @param ops the operations
     * @return the text, each line ending in {@code \n}
     */
    public static String text(ConformanceSettings settings, List<Operation> ops) {
        StringBuilder text = new StringBuilder("# conform:");
        for (Setting s : Setting.values()) {
            if (s.appliesTo(settings.engine())) {
                text.append(' ').append(s.zfsName()).append('=').append(s.toJson(s.get(settings)));
            }
        }
        text.append('\n');
        for (Operation op : ops) {
            text.append(op.toTraceLine()).append('\n');
        }
        return text.toString();
    }

    /**
     * @param newName the name the trace goes by in headers and errors
     * @return this trace under another name
     */
    public ConformanceTrace named(String newName) {
        return new ConformanceTrace(newName, settings, steps, sha256);
    }

    /** @return a fresh SHA-256 digest, for the checksum of a trace's text */
    static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static Assignment assignment(String text, String name, long line) {
        try {
            return Assignment.parse(line, text);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(name, line, e.getMessage());
        }
    }
}
