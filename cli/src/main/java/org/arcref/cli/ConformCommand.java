package org.arcref.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.conformance.JsonWriter;
import org.arcref.conformance.QuirkEffect;
import org.arcref.conformance.Transition;
import org.arcref.trace.Excerpt;
import org.arcref.zfs.InvalidArgumentException;
import org.arcref.zfs.QuirkFix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code arc conform}: runs an op trace through the ZFS spec and writes the conformance output
 * (JSON Lines, {@code docs/conformance.md}): a header with the settings, then the result and the
 * state after every operation. Optionally reports on standard error which transitions the trace
 * covers and which quirks it makes observable.
 */
@Command(name = "conform", mixinStandardHelpOptions = true,
        description = "Run an op trace (a file or a built-in conformance trace) through the ZFS 2.1.1 spec and "
                + "write the expected result and state after every operation as JSON Lines (docs/conformance.md).",
        footer = {"", "Examples:", "  arc conform --list", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc conform my.ops --set arc_c_max=16384 --fix ARC_P_GROWTH_CAP_14137",
                "  arc conform quirk-arc-p-growth --coverage > /dev/null", "  arc conform --list --coverage",
                "  arc conform builtin:waiters --headers"})
final class ConformCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "TRACE",
            description = "An op trace file, - for standard input, or a built-in trace name (NAME or builtin:NAME; "
                    + "see --list).")
    String trace;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "A setting (config or tunable, by its ZFS name as in the header), applied after the "
                    + "trace's own '# conform:' lines. Repeatable.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--fix", paramLabel = "QUIRK",
            description = "Apply a later fix of a 2.1.1 quirk: ${COMPLETION-CANDIDATES}. Repeatable.")
    List<QuirkFix> fixes = new ArrayList<>();

    @Option(names = "--headers", description = "List every buffer header after each operation.")
    boolean headers;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE instead of standard output (- is standard output); its folder must exist, "
                    + "and it must not be the TRACE.")
    Path output;

    @Option(names = "--coverage",
            description = "Report on standard error the transitions the trace covers and the quirks it shows; "
                    + "with --list, each built-in trace's coverage and the set's, on standard output.")
    boolean coverage;

    @Option(names = "--json", description = "With --coverage, report the coverage as one JSON object.")
    boolean json;

    @Option(names = "--list", description = "List the built-in conformance traces and exit.")
    boolean list;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        if (json && !coverage) {
            throw new IllegalArgumentException("--json has no effect without --coverage (the output is JSON Lines "
                    + "already), was given");
        }
        if (list) {
            if (trace != null) {
                throw new IllegalArgumentException("--list takes no TRACE, was given " + Excerpt.of(trace));
            }
            GivenOptions.reject(spec, "with --list", "--set", "--fix", "--headers", "--output", "--json");
            if (coverage) {
                listCoverage(out);
            } else {
                ConformanceTrace.builtinNames().forEach(out::println);
            }
            out.flush();
            return ExitCode.SUCCESS;
        }
        if (trace == null) {
            throw new IllegalArgumentException("TRACE is required: an op trace file or a built-in trace "
                    + ConformanceTrace.builtinNames() + " (arc conform --list)");
        }
        boolean toStdout = output == null || InputFile.isDash(output);
        if (!toStdout) {
            OutputFolder.require("-o/--output", output);
            OutputFolder.requireNotInput("-o/--output", output, Path.of(trace));
        }
        ConformanceTrace t = find(trace);
        if (t.steps().isEmpty()) {
            throw new IllegalArgumentException("trace " + t.name() + " has no operations; nothing to conform");
        }
        if (!toStdout && !t.name().startsWith(ConformanceTrace.BUILTIN) && !InputFile.isDash(Path.of(trace))) {
            t = t.named(relativeTo(output, Path.of(trace)));
        }
        ConformanceSettings settings = settings(t, sets, fixes);
        ConformanceRun run = ConformanceRun.of(t, settings, headers);
        if (toStdout) {
            write(out, run.lines());
        } else {
            try (Writer w = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
                write(w, run.lines());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + output + ": " + e.getMessage(), e);
            }
        }
        if (coverage) {
            report(spec.commandLine().getErr(), t, settings, run.transitions(), json);
        }
        return ExitCode.SUCCESS;
    }

    /**
     * The header's name of a trace file: its path from the output file's folder, which is where {@code arc verify}
     * looks for it, so that the two files can move together.
     */
    private static String relativeTo(Path output, Path trace) {
        Path folder = output.toAbsolutePath().normalize().getParent();
        return folder.relativize(trace.toAbsolutePath().normalize()).toString();
    }

    /** The trace named on the command line: standard input, a file, or a built-in trace. */
    private ConformanceTrace find(String nameOrPath) {
        Path path = Path.of(nameOrPath);
        if (InputFile.isDash(path) || !nameOrPath.startsWith(ConformanceTrace.BUILTIN) && Files.exists(path)) {
            return InputFile.read(path, "trace file", ArcCommand.stdin(spec), ConformanceTrace::read);
        }
        return ConformanceTrace.find(nameOrPath);
    }

    /**
     * The settings a trace runs under: the defaults, then its {@code # conform:} lines, then the
     * command line's {@code --set} and {@code --fix}.
     */
    private static ConformanceSettings settings(ConformanceTrace trace, List<String> sets, List<QuirkFix> fixes) {
        ConformanceSettings s = trace.applySettings(ConformanceSettings.defaults());
        List<ConformanceTrace.Assignment> given = new ArrayList<>();
        try {
            for (String text : sets) {
                given.add(ConformanceTrace.Assignment.parse(0, text));
            }
            s = s.with(ConformanceTrace.Assignment.toMap(given));
        } catch (InvalidArgumentException e) {
            throw new IllegalArgumentException("--set " + e.argument() + ": " + e.rule(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set: " + e.getMessage(), e);
        }
        Set<QuirkFix> all = EnumSet.noneOf(QuirkFix.class);
        all.addAll(fixes);
        return s.withFixes(all);
    }

    /** Each built-in trace's transitions and observable quirks, then what they cover together. */
    private static void listCoverage(PrintWriter out) {
        Set<Transition> all = EnumSet.noneOf(Transition.class);
        Set<QuirkFix> shown = EnumSet.noneOf(QuirkFix.class);
        for (String name : ConformanceTrace.builtinNames()) {
            ConformanceTrace t = ConformanceTrace.builtin(name);
            ConformanceSettings settings = t.applySettings(ConformanceSettings.defaults());
            Set<Transition> covered = ConformanceRun.of(t, settings, false).transitions();
            List<String> quirks = new ArrayList<>();
            for (QuirkFix f : QuirkFix.values()) {
                if (QuirkEffect.firstEffect(t, settings, f).isPresent()) {
                    quirks.add(f.name());
                    shown.add(f);
                }
            }
            all.addAll(covered);
            out.printf("%-22s %2d transitions; quirks: %s%n", name, covered.size(),
                    quirks.isEmpty() ? "none" : String.join(", ", quirks));
        }
        out.printf("%-22s %2d of %d transitions; %d of %d quirks%n", "together", all.size(),
                Transition.values().length, shown.size(), QuirkFix.values().length);
        for (Transition t : Transition.values()) {
            if (!all.contains(t)) {
                out.printf("  not covered: %s%n", t.name().toLowerCase(Locale.ROOT));
            }
        }
    }

    private static void write(Writer w, List<String> lines) throws IOException {
        for (String line : lines) {
            w.write(line);
            w.write('\n');
        }
        w.flush();
    }

    private static void report(PrintWriter err, ConformanceTrace trace, ConformanceSettings settings,
            Set<Transition> covered, boolean json) {
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("trace", trace.name());
            o.put("transitions", Transition.values().length);
            o.put("covered", covered.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList());
            Map<String, Object> quirks = new LinkedHashMap<>();
            for (QuirkFix f : QuirkFix.values()) {
                quirks.put(f.name(), QuirkEffect.firstEffect(trace, settings, f).isPresent());
            }
            o.put("quirksObservable", quirks);
            err.println(JsonWriter.write(o));
            err.flush();
            return;
        }
        err.printf("arc conform: %s covers %d of %d transitions%n", trace.name(), covered.size(),
                Transition.values().length);
        for (Transition t : Transition.values()) {
            err.printf("  %s %-26s %s%n", covered.contains(t) ? "[x]" : "[ ]", t.name().toLowerCase(Locale.ROOT), t.description());
        }
        err.println("quirks (trace run without and with each fix):");
        for (QuirkFix f : QuirkFix.values()) {
            Optional<Divergence> d = QuirkEffect.firstEffect(trace, settings, f);
            err.printf("  %s %-26s %s%n", d.isPresent() ? "[x]" : "[ ]", f.name(),
                    d.map(x -> "observable: operation " + (x.line() - 1) + ", " + x.field() + " " + x.expected()
                            + " without the fix, " + x.actual() + " with it").orElse("not observable"));
        }
        err.flush();
    }
}
