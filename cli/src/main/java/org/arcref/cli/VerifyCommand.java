package org.arcref.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.trace.TraceFormatException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code arc verify}: compares a conformance output with the expected one, or with the spec re-run
 * on the trace and settings its header names, and reports the first divergence with the operations
 * leading to it. Exit status 0 when equal, 1 on a divergence or on malformed input.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare a conformance output (JSON Lines, docs/conformance.md) with the expected one and "
                + "report the first divergence: line, field, expected, actual, and the operations leading to it. "
                + "With one file, the expected output is the spec re-run on the trace and settings in its header.",
                "Exit status: 0 equal, 1 divergence or malformed input, 2 bad usage."},
        footer = {"", "Examples:", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc verify my-port.jsonl",
                "  arc verify expected.jsonl my-port.jsonl --context 8"})
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

    @Override
    public Integer call() {
        if (context < 0) {
            throw new IllegalArgumentException("--context must be >= 0, was " + context);
        }
        ConformanceFile actual = ConformanceFile.read(second == null ? first : second);
        ConformanceFile expected = second == null ? rerun(actual) : ConformanceFile.read(first);
        PrintWriter out = spec.commandLine().getOut();
        Optional<Divergence> d = ConformanceComparer.firstDivergence(expected, actual);
        if (d.isEmpty()) {
            out.printf("arc verify: %s matches %s: %d lines (the header and %d operations)%n", actual.source(),
                    expected.source(), actual.lines().size(), actual.lines().size() - 1);
            out.flush();
            return 0;
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
        return 1;
    }

    /** The spec's output for the trace and settings named in {@code actual}'s header. */
    private static ConformanceFile rerun(ConformanceFile actual) {
        Map<String, Object> header = actual.header();
        try {
            ConformanceTrace trace = ConformanceTrace.find(ConformanceFormat.traceName(header));
            ConformanceRun run = ConformanceRun.of(trace, ConformanceFormat.settings(header),
                    ConformanceFormat.listsHeaders(header));
            return ConformanceFile.parse(run.lines(), "the spec on " + trace.name());
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(actual.source(), 1, e.getMessage());
        }
    }
}
