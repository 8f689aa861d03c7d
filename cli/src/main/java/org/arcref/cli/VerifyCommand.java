package org.arcref.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.arcref.conformance.BlockTraceConversion;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceReader;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.ConformanceVerifier;
import org.arcref.conformance.ConformanceVerifier.DivergentLine;
import org.arcref.conformance.ConformanceVerifier.Step;
import org.arcref.conformance.ConformanceVerifier.Verdict;
import org.arcref.conformance.Divergence;
import org.arcref.conformance.FieldFilter;
import org.arcref.conformance.JsonParser;
import org.arcref.conformance.JsonWriter;
import org.arcref.trace.Excerpt;
import org.arcref.trace.TraceFormat;
import org.arcref.trace.TraceFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code arc verify}: compares a conformance output with the expected one, or with the spec re-run on the trace
 * and settings its header names, as both are read ({@link ConformanceVerifier}: memory does not grow with the
 * files), and reports every differing field of up to {@code --max} divergent operations with the operations
 * leading to each, or that one output ends early. Exit status 0 when equal, 1 on a divergence, 2 on malformed
 * input or bad usage ({@link ExitCode}).
 *
 * <p>{@code --json} writes values as JSON values, except integers outside ±(2^53 - 1) (u64 quantities may reach
 * 2^64 - 1) and non-integers, which are written as strings of their decimal text: a reader that parses numbers as
 * doubles, as JavaScript does, would round them.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare a conformance output (JSON Lines, docs/conformance.md) with the expected one and "
                + "report every differing field of the first divergent operation (--max for more), the expected "
                + "and actual values, and the operations leading to it; or that the port's output ends early or "
                + "goes on. With one file, the expected output is the spec re-run on the trace and settings in its "
                + "header. Both are read as they are compared: memory does not grow with their size.",
                "The trace is identified by the headers' trace_sha256; trace paths that differ are a note, not a "
                + "divergence.",
                "Either file may be - for standard input (not both).",
                "Exit status: 0 equal, 1 divergence, 2 bad usage or malformed input, 3 internal error."},
        footer = {"", "FIELD is a field's path as divergences print it, without list indices and labels: arc_p, "
                + "stats, stats.hits, states.mru.esize, evicted, headers, headers.arc_access; a path covers "
                + "everything in it.",
                "With --json, values are JSON values except integers beyond +-(2^53 - 1) (u64 quantities), which "
                + "are strings of their decimal digits; a field one output lacks has no expected (or actual) key.",
                "", "Examples:", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc verify my-port.jsonl",
                "  arc verify expected.jsonl my-port.jsonl --context 8",
                "  arc verify expected.jsonl my-port.jsonl --max 3",
                "  arc verify expected.jsonl my-port.jsonl --ignore headers,stats.evictor_runs",
                "  arc verify expected.jsonl my-port.jsonl --only arc_c,arc_p,arc_size",
                "  arc verify big-expected.jsonl.gz big-port.jsonl.zst --progress",
                "  my-port < trace.ops | arc verify expected.jsonl - --json"})
final class VerifyCommand implements Callable<Integer> {

    /** The largest integer a double holds exactly with all below it: 2^53 - 1. */
    private static final BigInteger JSON_SAFE = BigInteger.ONE.shiftLeft(53).subtract(BigInteger.ONE);

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPECTED",
            description = "The expected output; with no ACTUAL, the output to check against the spec.")
    Path first;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ACTUAL", description = "The output to check.")
    Path second;

    @Option(names = "--context", paramLabel = "N", defaultValue = "3",
            description = "Operations to show up to each divergence (default: ${DEFAULT-VALUE}).")
    int context;

    @Option(names = "--max", paramLabel = "N", defaultValue = "1",
            description = "Divergent operations to report before stopping (default: ${DEFAULT-VALUE}).")
    int max;

    @Option(names = "--ignore", split = ",", paramLabel = "FIELD",
            description = "Fields not to compare (repeatable or comma-separated), for a port that does not write "
                    + "them.")
    List<String> ignore = new ArrayList<>();

    @Option(names = "--only", split = ",", paramLabel = "FIELD",
            description = "Compare only these fields (repeatable or comma-separated); not with --ignore.")
    List<String> only = new ArrayList<>();

    @Option(names = "--progress",
            description = "Report progress on standard error even when it is not a terminal (it is on a terminal).")
    boolean progress;

    @Option(names = "--json", description = "Print the verdict as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        ConformanceVerifier.Settings settings = new ConformanceVerifier.Settings(context, max,
                new FieldFilter(ignore, only));
        if (json) {
            GivenOptions.reject(spec, "with --json (it shapes the text report)", "--context");
        }
        if (second != null && InputFile.isDash(first) && InputFile.isDash(second)) {
            throw new IllegalArgumentException("EXPECTED and ACTUAL cannot both be - (standard input is read once)");
        }
        Progress bar = progress || Progress.onTerminal()
                ? new Progress(spec.commandLine().getErr(), "arc verify", Progress.onTerminal()) : null;
        LongConsumer onLine = bar == null ? line -> { } : line -> bar.update(-1, (line - 1) + " operations compared");
        Verdict verdict;
        if (second == null) {
            verdict = read(first, actual -> ConformanceVerifier.verify(rerun(actual, first), actual, settings,
                    onLine));
        } else {
            verdict = read(first, expected -> read(second, actual -> ConformanceVerifier.verify(expected, actual,
                    settings, onLine)));
        }
        if (bar != null) {
            bar.finish();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(json(verdict, settings.filter()));
        } else {
            report(out, verdict, settings);
        }
        out.flush();
        return verdict.matches() ? ExitCode.SUCCESS : ExitCode.FINDING;
    }

    /** Reads a conformance output's header, then hands the reader, positioned after it, to {@code use}. */
    private Verdict read(Path path, Function<ConformanceReader, Verdict> use) {
        return InputFile.read(path, "conformance file", ArcCommand.stdin(spec),
                (in, source) -> use.apply(new ConformanceReader(in::readLine, source)));
    }

    private static void report(PrintWriter out, Verdict v, ConformanceVerifier.Settings settings) {
        for (String note : v.notes()) {
            out.printf("arc verify: note: %s%n", note);
        }
        if (v.matches()) {
            out.printf("arc verify: %s matches %s: %d lines (the header and %d operations)%n", v.actual(),
                    v.expected(), v.lines(), v.lines() - 1);
        }
        String lead = "arc verify: " + v.actual() + " diverges from " + v.expected();
        for (DivergentLine d : v.divergences()) {
            out.printf("%s at line %d%s%n", lead, d.line(), d.line() == 1 ? " (the header)"
                    : " (operation " + (d.line() - 1) + ")");
            lead = "and";
            for (Divergence x : d.fields()) {
                out.printf("  field:    %s%n", x.field());
                out.printf("  expected: %s%n", x.expected());
                out.printf("  actual:   %s%n", x.actual());
            }
            leadingTo(out, d.leadingTo());
        }
        if (v.ending() != null) {
            out.printf("%s: %s%n", lead, v.ending().message());
            leadingTo(out, v.ending().leadingTo());
        }
        if (v.stoppedAtMax() && settings.max() > 1) {
            out.printf("arc verify: stopped after %d divergent lines (--max %d); the rest was not compared%n",
                    v.divergences().size(), settings.max());
        }
        if (!settings.filter().comparesAll()) {
            out.printf("arc verify: not compared: %s%n", settings.filter().notCompared());
        }
    }

    private static void leadingTo(PrintWriter out, List<Step> steps) {
        if (!steps.isEmpty()) {
            out.println("operations leading to it (expected):");
            for (Step s : steps) {
                out.printf("  operation %d (trace line %s): %s -> %s%n", s.operation(), s.traceLine(), s.op(),
                        s.outcome());
            }
        }
    }

    private static String json(Verdict v, FieldFilter filter) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("expected", v.expected());
        o.put("actual", v.actual());
        o.put("lines", v.lines());
        o.put("verdict", v.matches() ? "match" : "divergence");
        o.put("notes", v.notes());
        if (!filter.comparesAll()) {
            o.put("not_compared", filter.notCompared());
        }
        List<Object> divergences = new ArrayList<>();
        for (DivergentLine d : v.divergences()) {
            Map<String, Object> div = new LinkedHashMap<>();
            div.put("line", d.line());
            div.put("operation", d.line() - 1);
            List<Object> fields = new ArrayList<>();
            for (Divergence x : d.fields()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("field", x.field());
                if (!x.expected().equals(Divergence.ABSENT)) {
                    f.put("expected", jsonSafe(JsonParser.parse(x.expected())));
                }
                if (!x.actual().equals(Divergence.ABSENT)) {
                    f.put("actual", jsonSafe(JsonParser.parse(x.actual())));
                }
                fields.add(f);
            }
            div.put("fields", fields);
            divergences.add(div);
        }
        o.put("divergences", divergences);
        if (v.ending() != null) {
            o.put("ending", v.ending().message());
        }
        o.put("stopped_at_max", v.stoppedAtMax());
        return JsonWriter.write(o);
    }

    /** The value with every integer beyond ±(2^53 - 1), and every non-integer, as a string of its decimal text. */
    private static Object jsonSafe(Object value) {
        if (value instanceof BigInteger i) {
            return i.abs().compareTo(JSON_SAFE) <= 0 ? i : i.toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toString();
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> safe = new LinkedHashMap<>();
            m.forEach((k, x) -> safe.put((String) k, jsonSafe(x)));
            return safe;
        }
        if (value instanceof List<?> l) {
            return l.stream().map(VerifyCommand::jsonSafe).toList();
        }
        return value;
    }

    /**
     * The spec's output for the trace and settings named in {@code actual}'s header, run as it is read. A trace
     * file is found relative to the folder of the output file (the working directory for standard input) and must
     * have the header's checksum: a trace changed since the output was written is reported as such, not as a
     * divergence. A name {@code lirs:PATH} or {@code lis:PATH} is a block trace, converted again
     * ({@link BlockTraceConversion}).
     */
    private ConformanceReader rerun(ConformanceReader actual, Path actualPath) {
        Map<String, Object> header = actual.header();
        try {
            String name = ConformanceFormat.traceName(header);
            String sum = ConformanceFormat.traceSha256(header);
            ConformanceTrace trace;
            if (name.startsWith(ConformanceTrace.BUILTIN)) {
                trace = ConformanceTrace.find(name);
            } else {
                Optional<TraceFormat> block = BlockTraceConversion.formatOf(name);
                String path = block.map(f -> name.substring(f.toString().length() + 1)).orElse(name);
                Path folder = InputFile.isDash(actualPath) ? Path.of("")
                        : actualPath.toAbsolutePath().normalize().getParent();
                Path file = folder.resolve(path);
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " must be a "
                            + "built-in trace or a file relative to the output's folder, was not found at " + file);
                }
                InputFile.Reader<ConformanceTrace> reader = block.isPresent()
                        ? (in, source) -> BlockTraceConversion.read(in, source, block.get()) : ConformanceTrace::read;
                trace = InputFile.read(file, "trace file", ArcCommand.stdin(spec), reader).named(name);
            }
            if (!trace.sha256().equals(sum)) {
                throw new IllegalArgumentException("the trace " + trace.name() + " changed since the output was "
                        + "written: its sha256 is " + trace.sha256() + ", the header's trace_sha256 is "
                        + Excerpt.of(sum));
            }
            Iterator<String> lines = ConformanceRun.lines(trace, ConformanceFormat.settings(header),
                    ConformanceFormat.listsHeaders(header));
            return new ConformanceReader(() -> lines.hasNext() ? lines.next() : null, "the spec on " + trace.name());
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(actual.source(), 1, e.getMessage());
        }
    }
}
