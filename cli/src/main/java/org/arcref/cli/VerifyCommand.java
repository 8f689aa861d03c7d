package org.arcref.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.LongConsumer;
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
 * <p>With one file, the header is untrusted input (a port's output uploaded to CI): the trace it names is found by
 * {@link HeaderTrace}, which reads a built-in trace or a file inside the output's folder and nothing else, or is given
 * with {@code --trace}. Every value printed from either file, in the text report and in {@code --json}, is escaped
 * ({@link Excerpt#isPrintable}) and cut at {@value #MAX_VALUE_CHARS} characters (the operations leading to a
 * divergence at {@value Excerpt#MAX_CHARS}).
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
                "With one file, the header is untrusted input: its trace is a built-in trace, or a file looked up "
                + "in the output file's folder (never the working folder) that must stay inside it (no .., no "
                + "absolute path or symbolic link leading out); any other trace is not read, and is given with "
                + "--trace FILE, whose sha256 must be the header's trace_sha256. Values printed from the files are "
                + "escaped (control characters as \\u001b) and cut at " + VerifyCommand.MAX_VALUE_CHARS + " characters.",
                "Either file may be - for standard input (not both).",
                "Exit status: 0 equal, 1 divergence, 2 bad usage or malformed input, 3 internal error."},
        footer = {"", "FIELD is a field's path as divergences print it, without list indices and labels: arc_p, "
                + "stats, stats.hits, states.mru.esize, evicted, headers, headers.arc_access; a path covers "
                + "everything in it.",
                "With --json, values are JSON values except integers beyond +-(2^53 - 1) (u64 quantities), which "
                + "are strings of their decimal digits; a field one output lacks has no expected (or actual) key.",
                "", "Examples:", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc verify my-port.jsonl",
                "  arc verify uploads/my-port.jsonl --trace traces/t.ops",
                "  arc verify expected.jsonl my-port.jsonl --context 8",
                "  arc verify expected.jsonl my-port.jsonl --max 3",
                "  arc verify expected.jsonl my-port.jsonl --ignore headers,stats.evictor_runs",
                "  arc verify expected.jsonl my-port.jsonl --only arc_c,arc_p,arc_size",
                "  arc verify big-expected.jsonl.gz big-port.jsonl.zst --progress",
                "  my-port < trace.ops | arc verify expected.jsonl - --json"})
final class VerifyCommand implements Callable<Integer> {

    /**
     * The most characters of one value a report shows: a whole {@code stats} object (about 600) fits, a value a
     * port wrote by mistake (a megabyte-long string) does not flood the log.
     */
    static final int MAX_VALUE_CHARS = 1000;

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

    @Option(names = "--trace", paramLabel = "FILE",
            description = "With one file: the trace to re-run the spec on, instead of the one the header names (its "
                    + "sha256 must be the header's trace_sha256). Needed when the header's trace is not a built-in "
                    + "trace or a file inside the output's folder.")
    Path traceFile;

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
        if (second != null) {
            GivenOptions.reject(spec, "with two files (EXPECTED is the expected output; no trace is re-run)",
                    "--trace");
        } else if (traceFile != null && InputFile.isDash(first) && InputFile.isDash(traceFile)) {
            throw new IllegalArgumentException("ACTUAL and --trace cannot both be - (standard input is read once)");
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
            out.printf("arc verify: note: %s%n", shown(note));
        }
        if (v.matches()) {
            out.printf("arc verify: %s matches %s: %d lines (the header and %d operations)%n", shown(v.actual()),
                    shown(v.expected()), v.lines(), v.lines() - 1);
        }
        String lead = "arc verify: " + shown(v.actual()) + " diverges from " + shown(v.expected());
        for (DivergentLine d : v.divergences()) {
            out.printf("%s at line %d%s%n", lead, d.line(), d.line() == 1 ? " (the header)"
                    : " (operation " + (d.line() - 1) + ")");
            lead = "and";
            for (Divergence x : d.fields()) {
                out.printf("  field:    %s%n", shown(x.field()));
                out.printf("  expected: %s%n", shown(x.expected()));
                out.printf("  actual:   %s%n", shown(x.actual()));
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
                out.printf("  operation %d (trace line %s): %s -> %s%n", s.operation(),
                        Excerpt.field(s.traceLine(), Excerpt.MAX_CHARS), Excerpt.field(s.op(), Excerpt.MAX_CHARS),
                        Excerpt.field(s.outcome(), Excerpt.MAX_CHARS));
            }
        }
    }

    /** A value of an input as the text report prints it: escaped and cut at {@value #MAX_VALUE_CHARS}. */
    private static String shown(String value) {
        return Excerpt.field(value, MAX_VALUE_CHARS);
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
                    f.put("expected", reparsed(x.expected()));
                }
                if (!x.actual().equals(Divergence.ABSENT)) {
                    f.put("actual", reparsed(x.actual()));
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
        return JsonWriter.write(jsonSafe(o));
    }

    /** A divergence's value, which {@link JsonWriter} wrote from a parsed value, as that value again. */
    private static Object reparsed(String json) {
        return JsonParser.parse(json, Integer.MAX_VALUE);
    }

    /**
     * The value with every integer beyond ±(2^53 - 1), and every non-integer, as a string of its decimal text, and
     * every string longer than {@value #MAX_VALUE_CHARS} characters cut there, followed by
     * {@code ... (N characters)}. ({@link JsonWriter} escapes the characters a terminal would act on.)
     */
    private static Object jsonSafe(Object value) {
        if (value instanceof BigInteger i) {
            return i.abs().compareTo(JSON_SAFE) <= 0 ? i : i.toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toString();
        }
        if (value instanceof String s && s.length() > MAX_VALUE_CHARS) {
            return s.substring(0, MAX_VALUE_CHARS) + "... (" + s.length() + " characters)";
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
     * The spec's output for the trace and settings named in {@code actual}'s header, run as it is read. The trace is
     * found by {@link HeaderTrace}: {@code --trace} when given, a built-in trace, or a file inside the output's
     * folder, and must have the header's checksum (a trace changed since the output was written is reported as
     * such, not as a divergence). A name {@code lirs:PATH} or {@code lis:PATH} is a block trace, converted again
     * ({@link org.arcref.conformance.BlockTraceConversion}).
     */
    private ConformanceReader rerun(ConformanceReader actual, Path actualPath) {
        Map<String, Object> header = actual.header();
        try {
            ConformanceTrace trace = HeaderTrace.find(header, actualPath, traceFile, ArcCommand.stdin(spec));
            Iterator<String> lines = ConformanceRun.lines(trace, ConformanceFormat.settings(header),
                    ConformanceFormat.listsHeaders(header));
            return new ConformanceReader(() -> lines.hasNext() ? lines.next() : null, "the spec on " + trace.name());
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(actual.source(), 1, e.getMessage());
        }
    }
}
