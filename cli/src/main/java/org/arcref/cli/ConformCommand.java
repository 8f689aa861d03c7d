package org.arcref.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
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
import org.arcref.conformance.BlockTraceConversion;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.conformance.JsonWriter;
import org.arcref.conformance.QuirkEffect;
import org.arcref.conformance.Transition;
import org.arcref.trace.Excerpt;
import org.arcref.trace.TraceFormat;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code arc conform}: runs an op trace through the ZFS spec and writes the conformance output
 * (JSON Lines, {@code docs/conformance.md}): a header with the settings, then the result and the
 * state after every operation. Optionally reports on standard error which transitions the trace
 * covers and which quirks it makes observable. A LIRS or {@code .lis} block trace runs as the operations
 * {@code arc replay} performs on the spec ({@link BlockTraceConversion}); {@code --print-trace} prints the op trace
 * instead of running it.
 */
@Command(name = "conform", mixinStandardHelpOptions = true,
        description = "Run an op trace (a file or a built-in conformance trace) through the ZFS spec (zfs-2.1.1, or the release --zfs names) and "
                + "write the expected result and state after every operation as JSON Lines (docs/conformance.md).",
        footer = {"", "Examples:", "  arc conform --list", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc conform my.ops --set arc_c_max=16384 --fix ARC_P_GROWTH_CAP_14137",
                "  arc conform eviction --zfs 2.1.16 -o expected-2.1.16.jsonl",
                "  arc conform quirk-arc-p-growth --coverage > /dev/null", "  arc conform --list --coverage",
                "  arc conform builtin:waiters --headers",
                "  arc conform ghost-adaptation --print-trace | sha256sum",
                "  arc conform trace.lirs --format lirs --pages 100 -o expected.jsonl",
                "  arc conform trace.lis --format lis --pages 100 --print-trace > trace.ops"})
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
            description = "Apply a fix of a quirk of the engine --zfs runs (upstream's, named for its PR, or ours, "
                    + "named _OURS: docs/scope.md): ${COMPLETION-CANDIDATES}. Repeatable; adds to --zfs.")
    List<QuirkFix> fixes = new ArrayList<>();

    @Option(names = "--zfs", paramLabel = "RELEASE",
            description = "Follow this OpenZFS release: 2.1.1 (the default) or 2.1.16 (2.1.1 with every upstream fix "
                    + "2.1.16 shipped: WRITE_SHARES_LINEAR_12425, REAP_ABOVE_C_MIN_13794, ARC_P_GROWTH_CAP_14137), run "
                    + "by zfs-2.1.1's engine; 2.2.0 or 2.2.11 (2.2.0 with MFU_META_EVICTION_16546, "
                    + "EVICT_ADJ_OVERFLOW_17255, SHRINK_IMPROVEMENTS_16197), run by zfs-2.2.0's engine. "
                    + "The header's zfs field names the release the output follows.")
    String zfs;

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

    @Option(names = "--format", paramLabel = "lirs|lis",
            description = "TRACE is a block trace in this format (as arc replay reads it), run as the operations "
                    + "arc replay performs on the spec: per page request, 'tick 1' and a 4 KiB demand read. "
                    + "Needs --pages.")
    String format;

    @Option(names = "--pages", paramLabel = "N",
            description = "With --format: the cache's capacity in pages, at least 2 (arc replay's zfs policy at "
                    + "that size sets the settings, before --set).")
    Integer pages;

    @Option(names = "--print-trace",
            description = "Print the op trace instead of running it: a built-in trace's text exactly, a file's "
                    + "lines; its sha256 is the header's trace_sha256. With --format, the converted op trace, "
                    + "its settings (and --set) in a '# conform:' line.")
    boolean printTrace;

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
            GivenOptions.reject(spec, "with --list", "--set", "--fix", "--zfs", "--headers", "--output", "--json", "--format",
                    "--pages", "--print-trace");
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
        TraceFormat block = blockFormat();
        if (printTrace) {
            GivenOptions.reject(spec, "with --print-trace (it prints the trace, it does not run it)", "--fix", "--zfs",
                    "--headers", "--coverage");
            if (block == null) {
                GivenOptions.reject(spec, "with --print-trace of an op trace (it is printed as it is written)",
                        "--set");
            }
        }
        boolean toStdout = output == null || InputFile.isDash(output);
        if (!toStdout) {
            OutputFolder.require("-o/--output", output);
            OutputFolder.requireNotInput("-o/--output", output, Path.of(trace));
        }
        if (printTrace) {
            String text = printedText(block);
            write(toStdout, out, w -> w.write(text));
            return ExitCode.SUCCESS;
        }
        ConformanceTrace t = block != null ? readBlockTrace(block) : find(trace);
        if (t.steps().isEmpty()) {
            throw new IllegalArgumentException("trace " + t.name() + " has no operations; nothing to conform");
        }
        if (!toStdout && isFileArgument() && !InputFile.isDash(Path.of(trace))) {
            String path = relativeTo(output, Path.of(trace));
            t = t.named(block != null ? BlockTraceConversion.name(block, path) : path);
        }
        ZfsEngine engine = ZfsOption.release(zfs).engine();
        if (engine != ZfsEngine.V2_1_1) {
            if (block != null) {
                throw new IllegalArgumentException("--format converts block traces for zfs-2.1.1's engine only, was "
                        + "given with --zfs " + zfs);
            }
            if (coverage) {
                throw new IllegalArgumentException("--coverage reports the transitions of zfs-2.1.1's engine only, "
                        + "was given with --zfs " + zfs);
            }
        }
        ConformanceSettings settings = SettingAssignments.apply(block != null ? BlockTraceConversion.settings(pages)
                : t.applySettings(ConformanceSettings.defaults(engine)), sets).withFixes(appliedFixes());
        ConformanceRun.Lines run = ConformanceRun.lines(t, settings, headers);
        write(toStdout, out, w -> {
            while (run.hasNext() && !Interruption.requested()) {
                w.write(run.next());
                w.write('\n');
            }
        });
        if (run.hasNext()) {
            spec.commandLine().getErr().println("arc conform: interrupted after " + run.operations() + " of "
                    + t.steps().size() + " operations; " + (toStdout ? "standard output" : output)
                    + " holds only those");
            return ExitCode.INTERRUPTED;
        }
        if (coverage) {
            report(spec.commandLine().getErr(), t, settings, run.transitions(), json);
        }
        return ExitCode.SUCCESS;
    }

    /** @return the fixes of {@code --zfs}'s release and every {@code --fix} */
    private Set<QuirkFix> appliedFixes() {
        Set<QuirkFix> applied = EnumSet.noneOf(QuirkFix.class);
        applied.addAll(ZfsOption.release(zfs).fixes());
        applied.addAll(fixes);
        return applied;
    }

    /**
     * The header's name of a trace file: its path from the output file's folder, which is where {@code arc verify}
     * looks for it, so that the two files can move together. (A trace read from standard input keeps the name
     * {@code <stdin>}, which {@code arc verify} answers by asking for {@code --trace}.)
     */
    private static String relativeTo(Path output, Path trace) {
        Path folder = output.toAbsolutePath().normalize().getParent();
        return folder.relativize(trace.toAbsolutePath().normalize()).toString();
    }

    /** @return whether TRACE is standard input or a file (an existing file wins over a built-in name) */
    private boolean isFileArgument() {
        Path path = Path.of(trace);
        return InputFile.isDash(path) || !trace.startsWith(ConformanceTrace.BUILTIN) && Files.exists(path);
    }

    /** The op trace named on the command line: standard input, a file, or a built-in trace. */
    private ConformanceTrace find(String nameOrPath) {
        if (isFileArgument()) {
            return InputFile.read(Path.of(nameOrPath), "trace file", ArcCommand.stdin(spec), ConformanceTrace::read);
        }
        return ConformanceTrace.find(nameOrPath);
    }

    /**
     * @return the block trace format of {@code --format}, checked with {@code --pages}; {@code null} for an op trace
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    private TraceFormat blockFormat() {
        if (format == null) {
            GivenOptions.reject(spec, "without --format (it sizes the cache of a block trace)", "--pages");
            return null;
        }
        TraceFormat f = TraceFormat.named(format);
        if (pages == null) {
            throw new IllegalArgumentException("--format " + f + " needs --pages N, the cache's capacity in pages, "
                    + "was not given");
        }
        if (pages < 2) {
            throw new IllegalArgumentException("--pages must be >= 2, was " + pages);
        }
        return f;
    }

    /** TRACE read as a block trace of the given format and converted ({@link BlockTraceConversion}). */
    private ConformanceTrace readBlockTrace(TraceFormat block) {
        ConformanceTrace t = InputFile.read(Path.of(trace), "trace file", ArcCommand.stdin(spec),
                (in, source) -> BlockTraceConversion.read(in, source, block));
        if (t.steps().isEmpty()) {
            throw new IllegalArgumentException("trace file " + InputFile.name(Path.of(trace)) + " has no requests "
                    + "(no data lines); nothing to conform");
        }
        return t;
    }

    /**
     * The text {@code --print-trace} prints: a block trace's conversion as an op trace with its settings, a file's
     * lines (checked to be an op trace), or a built-in trace's resource.
     */
    private String printedText(TraceFormat block) {
        if (block != null) {
            List<Operation> ops = readBlockTrace(block).steps().stream().map(ConformanceTrace.Step::operation)
                    .toList();
            return ConformanceTrace.text(SettingAssignments.apply(BlockTraceConversion.settings(pages), sets), ops);
        }
        if (isFileArgument()) {
            return InputFile.read(Path.of(trace), "trace file", ArcCommand.stdin(spec), (in, source) -> {
                StringBuilder text = new StringBuilder();
                in.lines().forEach(line -> text.append(line).append('\n'));
                ConformanceTrace.read(new BufferedReader(new StringReader(text.toString())), source);
                return text.toString();
            });
        }
        String name = ConformanceTrace.find(trace).name().substring(ConformanceTrace.BUILTIN.length());
        return ConformanceTrace.builtinText(name);
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
            for (QuirkFix f : QuirkFix.of(ZfsEngine.V2_1_1)) {
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
                Transition.values().length, shown.size(), QuirkFix.of(ZfsEngine.V2_1_1).size());
        for (Transition t : Transition.values()) {
            if (!all.contains(t)) {
                out.printf("  not covered: %s%n", t.name().toLowerCase(Locale.ROOT));
            }
        }
    }

    /** What a run writes. */
    @FunctionalInterface
    private interface Text {
        void writeTo(Writer w) throws IOException;
    }

    /**
     * Writes the text to standard output or to {@code --output}; if the text fails (an operation the spec rejects),
     * the output file, incomplete, is deleted before the failure goes on.
     */
    private void write(boolean toStdout, PrintWriter out, Text text) {
        try (Writer w = toStdout ? null : Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
            try {
                text.writeTo(toStdout ? out : w);
            } catch (RuntimeException e) {
                if (!toStdout) {
                    w.close();
                    Files.deleteIfExists(output);
                }
                throw e;
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + output + ": " + e.getMessage(), e);
        }
    }

    private static void report(PrintWriter err, ConformanceTrace trace, ConformanceSettings settings,
            Set<Transition> covered, boolean json) {
        if (json) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("trace", trace.name());
            o.put("transitions", Transition.values().length);
            o.put("covered", covered.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList());
            Map<String, Object> quirks = new LinkedHashMap<>();
            for (QuirkFix f : QuirkFix.of(ZfsEngine.V2_1_1)) {
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
        for (QuirkFix f : QuirkFix.of(ZfsEngine.V2_1_1)) {
            Optional<Divergence> d = QuirkEffect.firstEffect(trace, settings, f);
            err.printf("  %s %-30s %s%n", d.isPresent() ? "[x]" : "[ ]", f.name(),
                    d.map(x -> "observable: operation " + (x.line() - 1) + ", " + x.field() + " " + x.expected()
                            + " without the fix, " + x.actual() + " with it").orElse("not observable"));
        }
        err.flush();
    }
}
