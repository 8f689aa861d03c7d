package org.arcref.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.arcref.conformance.BlockTraceConversion;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
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
 * {@code arc verify}: compares a conformance output with the expected one, or with the spec re-run
 * on the trace and settings its header names, and reports the first divergence with the operations
 * leading to it. Exit status 0 when equal, 1 on a divergence, 2 on malformed input ({@link ExitCode}).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare a conformance output (JSON Lines, docs/conformance.md) with the expected one and "
                + "report the first divergence: line, field, expected, actual, and the operations leading to it. "
                + "With one file, the expected output is the spec re-run on the trace and settings in its header.",
                "Either file may be - for standard input (not both).",
                "Exit status: 0 equal, 1 divergence, 2 bad usage or malformed input, 3 internal error."},
        footer = {"", "Examples:", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc verify my-port.jsonl",
                "  arc verify expected.jsonl my-port.jsonl --context 8",
                "  my-port < trace.ops | arc verify expected.jsonl - --json"})
final class VerifyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPECTED",
            description = "The expected output; with no ACTUAL, the output to check against the spec.")
    Path first;

    @Parameters(index = "1", arity = "0..1", paramLabel = "ACTUAL", description = "The output to check.")
    Path second;

    @Option(names = "--context", paramLabel = "N", defaultValue = "3",
            description = "Operations to show up to the divergence (default: ${DEFAULT-VALUE}).")
    int context;

    @Option(names = "--json", description = "Print the verdict as one JSON object.")
    boolean json;

    @Override
    public Integer call() {
        if (context < 0) {
            throw new IllegalArgumentException("--context must be >= 0, was " + context);
        }
        if (json) {
            GivenOptions.reject(spec, "with --json (it shapes the text report)", "--context");
        }
        if (second != null && InputFile.isDash(first) && InputFile.isDash(second)) {
            throw new IllegalArgumentException("EXPECTED and ACTUAL cannot both be - (standard input is read once)");
        }
        ConformanceFile actual = read(second == null ? first : second);
        ConformanceFile expected = second == null ? rerun(actual, first) : read(first);
        PrintWriter out = spec.commandLine().getOut();
        Optional<Divergence> d = ConformanceComparer.firstDivergence(expected, actual);
        if (json) {
            out.println(json(expected, actual, d));
            out.flush();
            return d.isEmpty() ? ExitCode.SUCCESS : ExitCode.FINDING;
        }
        if (d.isEmpty()) {
            out.printf("arc verify: %s matches %s: %d lines (the header and %d operations)%n", actual.source(),
                    expected.source(), actual.lines().size(), actual.lines().size() - 1);
            out.flush();
            return ExitCode.SUCCESS;
        }
        Divergence x = d.get();
        out.printf("arc verify: %s diverges from %s at line %d%s%n", actual.source(), expected.source(), x.line(),
                x.line() == 1 ? " (the header)" : " (operation " + (x.line() - 1) + ")");
        out.printf("  field:    %s%n", x.field().isEmpty() ? "(the whole line)" : x.field());
        out.printf("  expected: %s%n", x.expected());
        out.printf("  actual:   %s%n", x.actual());
        if (x.line() > 1 && context > 0) {
            out.println("operations leading to it (expected):");
            long from = Math.max(2, x.line() - context + 1);
            for (long line = from; line <= Math.min(x.line(), expected.lines().size()); line++) {
                Map<String, Object> op = expected.lines().get((int) line - 1);
                out.printf("  operation %d (trace line %s): %s -> %s%n", line - 1, op.get("line"), op.get("op"),
                        op.get("outcome"));
            }
        }
        out.flush();
        return ExitCode.FINDING;
    }

    private ConformanceFile read(Path path) {
        return InputFile.read(path, "conformance file", ArcCommand.stdin(spec), ConformanceFile::read);
    }

    private static String json(ConformanceFile expected, ConformanceFile actual, Optional<Divergence> d) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("expected", expected.source());
        o.put("actual", actual.source());
        o.put("lines", actual.lines().size());
        o.put("verdict", d.isEmpty() ? "match" : "divergence");
        d.ifPresent(x -> {
            Map<String, Object> div = new LinkedHashMap<>();
            div.put("line", x.line());
            div.put("operation", x.line() - 1);
            div.put("field", x.field());
            div.put("expected", x.expected());
            div.put("actual", x.actual());
            o.put("divergence", div);
        });
        return JsonWriter.write(o);
    }

    /**
     * The spec's output for the trace and settings named in {@code actual}'s header. A trace file is found relative
     * to the folder of the output file (the working directory for standard input) and must have the header's
     * checksum: a trace changed since the output was written is reported as such, not as a divergence. A name
     * {@code lirs:PATH} or {@code lis:PATH} is a block trace, converted again ({@link BlockTraceConversion}).
     */
    private ConformanceFile rerun(ConformanceFile actual, Path actualPath) {
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
            ConformanceRun run = ConformanceRun.of(trace, ConformanceFormat.settings(header),
                    ConformanceFormat.listsHeaders(header));
            return ConformanceFile.parse(run.lines(), "the spec on " + trace.name());
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(actual.source(), 1, e.getMessage());
        }
    }
}
