package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.arcref.conformance.ConformanceReader;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.ConformanceVerifier;
import org.arcref.conformance.FieldFilter;
import org.junit.jupiter.api.Test;

/**
 * {@code arc verify}'s memory does not grow with the outputs: a JVM limited to {@value #HEAP} of heap verifies two
 * generated outputs of {@value #LINES} lines of {@code --headers} text each (about 120 MB each; read whole, as
 * verify read them before, they run out of this heap), which differ only on their last line, so the last line
 * must be reached. The outputs are made as they are read, never stored.
 */
class VerifyMemoryTest {

    static final String HEAP = "-Xmx24m";
    static final int LINES = 40_000;

    @Test
    void twoLargeOutputsAreVerifiedInASmallHeap() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), HEAP, "-cp", System.getProperty("java.class.path"),
                VerifyMemoryTest.class.getName()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertEquals("divergent line " + (LINES + 1) + " of " + (LINES + 1) + ": arc_size\n", out);
    }

    /** Verifies the two generated outputs and prints the divergent line, its field and the lines compared. */
    public static void main(String[] args) {
        ConformanceTrace trace = ConformanceTrace.builtin("waiters");
        List<String> run = ConformanceRun.of(trace, trace.applySettings(ConformanceSettings.defaults()), true).lines();
        String header = run.get(0);
        String widest = run.stream().skip(1).max((a, b) -> Integer.compare(a.length(), b.length())).orElseThrow();
        ConformanceReader expected = new ConformanceReader(generated(header, widest, widest), "expected");
        ConformanceReader actual = new ConformanceReader(generated(header, widest,
                widest.replaceFirst("\"arc_size\":(\\d+)", "\"arc_size\":1$1")), "actual");
        ConformanceVerifier.Verdict v = ConformanceVerifier.verify(expected, actual,
                new ConformanceVerifier.Settings(3, 1, FieldFilter.ALL), line -> { });
        ConformanceVerifier.DivergentLine d = v.divergences().get(0);
        System.out.print("divergent line " + d.line() + " of " + v.lines() + ": "
                + String.join(",", d.fields().stream().map(x -> x.field()).toList()) + "\n");
    }

    /** The header, {@value #LINES} - 1 copies of {@code line}, then {@code last}. */
    private static ConformanceReader.LineSource generated(String header, String line, String last) {
        int[] n = {0};
        return () -> {
            int i = n[0]++;
            return i == 0 ? header : i < LINES ? line : i == LINES ? last : null;
        };
    }

}
