package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.arcref.conformance.ConformanceReader;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.ConformanceVerifier;
import org.arcref.conformance.FieldFilter;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the conformance suite against a port in another language: {@code cli/src/test/python/arcport.py}, a Python
 * port of the zfs-2.1.1 engine with planted port bugs (docs/porting.md, "Checking a port: planted port bugs").
 *
 * <p>Contract. The clean port's {@code --headers} output of every built-in trace of {@code INDEX}, without fixes and
 * with every quirk fix, matches the spec's ({@link ConformanceVerifier}, everything compared), and each planted bug
 * ({@code arcport.py --list-bugs}) is caught by the {@code --headers} output of the built-in trace
 * {@link #PINNED_BY} names for it: a bug without a name, or whose named trace lets it through, fails the test, naming
 * it. Where {@code python3} is missing the test fails naming the install command.
 *
 * <p>Implementation overview. The spec's outputs are written once to a temporary folder from the traces
 * ({@link ConformanceRun#lines}); the traces' texts go beside them for the port. The port runs in its {@code --batch}
 * mode, one Python process writing one output per row: clean over every run, then each bug over its named trace;
 * each output is verified against the spec's with {@link ConformanceVerifier}, stopping at the first divergent line.
 */
class PortBugsTest {

    private static final Path PORT = Path.of("src/test/python/arcport.py");
    /**
     * Each planted bug with the built-in trace that pins the rule it breaks: of the built-ins whose {@code --headers}
     * output catches it ({@code measure_bugs.py}, docs/porting.md section 8), the one with the smallest output.
     */
    static final Map<String, String> PINNED_BY = Map.ofEntries(
            Map.entry("sublist-hash-64bit", "sublists-three"),
            Map.entry("sublist-hash-signed32", "sublists-three"),
            Map.entry("random-index-64bit", "sublists-three"),
            Map.entry("random-index-signed32", "sublists-three"),
            Map.entry("evict-type-draws-missing", "sublists"),
            Map.entry("evict-type-draws-once", "eviction-draws"),
            Map.entry("evict-type-draws-after-mru", "eviction-draws"),
            Map.entry("evict-state-one-draw", "eviction-draws"),
            Map.entry("hash-lock-4096", "hash-lock-bit-11"),
            Map.entry("write-takes-hash-lock", "write-ready-holds-no-hash-lock"),
            Map.entry("mutex-miss-counts-batch", "batch-limit-mutex-miss"),
            Map.entry("mutex-miss-ghost-hit-unlocked", "waiters"),
            Map.entry("mintime-as-62ms", "ticks-not-whole"),
            Map.entry("ms-to-tick-floor", "ticks-not-whole"),
            Map.entry("ms-to-tick-int32", "tunables-high-edges"),
            Map.entry("ms-to-tick-ignores-hz", "ticks-not-whole"),
            Map.entry("prefetch-lifetime-le", "prefetch"),
            Map.entry("prescient-lifetime-swapped", "prefetch"),
            Map.entry("access-mintime-ge", "mintime-and-second-holds"),
            Map.entry("growtime-in-seconds", "fix-boundaries"),
            Map.entry("adapt-product-64bit", "quirk-adapt-mru-multiply"),
            Map.entry("adapt-bytes-unsigned", "quirk-adapt-mru-multiply"),
            Map.entry("adapt-mru-min-signed", "adapt-mru-ghost-wrap"),
            Map.entry("adapt-mfu-min-signed", "quirk-adapt-multiply"),
            Map.entry("dampener-inverted", "adapt-mru-ghost-wrap"),
            Map.entry("overflow-shift-off-by-one", "tunables-low-edges"),
            Map.entry("overflow-no-reserve", "write-holds-no-hash-lock"),
            Map.entry("overflow-over-unsigned", "negative-keys"),
            Map.entry("scatter-min-size-le", "scatter-min-size"),
            Map.entry("need-free-full-sys-free", "fix-boundaries"),
            Map.entry("need-free-unsigned", "fix-boundaries"),
            Map.entry("waiter-release-lt", "waiter-release"),
            Map.entry("waiter-release-memory-ge", "low-memory-waiter"),
            Map.entry("batch-limit-off-by-one", "eviction-draws"),
            Map.entry("batch-limit-counts-skips", "batch-limit-prefetch-skip"),
            Map.entry("evict-count-counts-ghosts", "fix-boundaries"),
            Map.entry("evict-total-no-ghosts", "tunables-high-edges"),
            Map.entry("evict-mfu-target-stale", "evict-total"),
            Map.entry("evict-mru-target-no-anon", "tunables-high-edges"),
            Map.entry("evict-count-u32", "evict-count-64bit"),
            Map.entry("ghost-hit-adapts-twice", "evict-total"),
            Map.entry("hit-access-before-reference", "scatter"),
            Map.entry("reap-no-grow-uses-shrink-shift", "reap-no-grow-shift"),
            Map.entry("reduce-p-shrink-shift", "evict-total"),
            Map.entry("add-reference-keeps-prefetch", "evict-total"),
            Map.entry("remove-reference-inserts-tail", "linear-abds"),
            Map.entry("overwrite-keeps-access-time", "overwrite"),
            Map.entry("overwrite-keeps-sublist", "tunables-high-edges"),
            Map.entry("size-counted-before-wait", "fix-boundaries"),
            Map.entry("ghost-hit-access-before-adapt", "ghost-adaptation"),
            Map.entry("headers-unsigned-key-order", "negative-keys"),
            Map.entry("anon-grows-p-le-c", "hash-lock-zero"));

    /** The suffix of a built-in's outputs with every quirk fix of zfs-2.1.1's engine. */
    private static final String FIXED = "+fixes";

    @TempDir
    static Path dir;

    private static List<String> builtins;

    @BeforeAll
    static void writeExpectedOutputs() throws IOException {
        builtins = ConformanceTrace.builtinNames();
        for (String name : builtins) {
            Files.writeString(dir.resolve(name + ".ops"), ConformanceTrace.builtinText(name), StandardCharsets.UTF_8);
            writeSpecOutput(ConformanceTrace.builtin(name), name, Set.of());
            writeSpecOutput(ConformanceTrace.builtin(name), name + FIXED, QuirkFix.of(ZfsEngine.V2_1_1));
        }
    }

    private static void writeSpecOutput(ConformanceTrace trace, String name, Set<QuirkFix> fixes) throws IOException {
        ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults()).withFixes(fixes);
        Iterator<String> lines = ConformanceRun.lines(trace, settings, true);
        try (var out = Files.newBufferedWriter(dir.resolve(name + ".expected.jsonl"))) {
            while (lines.hasNext()) {
                out.write(lines.next());
                out.write('\n');
            }
        }
    }

    @Test
    void cleanPortMatchesTheSpecOnEveryBuiltin() throws Exception {
        List<Row> rows = new ArrayList<>();
        builtins.forEach(name -> rows.add(new Row(null, name)));
        builtins.forEach(name -> rows.add(new Row(null, name + FIXED)));
        assertEquals(List.of(), divergent(rows), "the clean port diverges from the spec on these built-in traces "
                + "(" + FIXED + ": with every quirk fix)");
    }

    @Test
    void eachPlantedBugIsCaughtByTheBuiltinThatPinsItsRule() throws Exception {
        List<String> bugs = bugs();
        assertEquals(new TreeSet<>(bugs), new TreeSet<>(PINNED_BY.keySet()), "every planted bug, and only those, "
                + "named with the built-in trace that catches it");
        List<Row> rows = bugs.stream().map(bug -> new Row(bug, PINNED_BY.get(bug))).toList();
        List<Row> notCaught = new ArrayList<>(rows);
        notCaught.removeAll(divergent(rows));
        assertEquals(List.of(), notCaught, "planted bugs the built-in named for them does not catch");
    }

    /**
     * One output of a batch.
     *
     * @param bug the bug planted, or null for the clean port
     * @param run a built-in's name, with {@link #FIXED} for its run with every quirk fix
     */
    private record Row(String bug, String run) {
    }

    /** @return the rows whose {@code --headers} output diverges from the spec's, from one run of the port */
    private static List<Row> divergent(List<Row> rows) throws IOException, InterruptedException {
        Path outs = Files.createTempDirectory(dir, "batch");
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            boolean fixed = row.run().endsWith(FIXED);
            String trace = fixed ? row.run().substring(0, row.run().length() - FIXED.length()) : row.run();
            spec.append(row.bug() == null ? "-" : row.bug()).append('\t').append(dir.resolve(trace + ".ops"))
                    .append('\t').append(outs.resolve(i + ".jsonl")).append('\t')
                    .append(fixed ? String.join(",", QuirkFix.of(ZfsEngine.V2_1_1).stream().map(Enum::name).toList())
                            : "").append('\n');
        }
        Path batch = outs.resolve("batch.tsv");
        Files.writeString(batch, spec.toString());
        python(List.of("--batch", batch.toString(), "--headers"));
        List<Row> diverged = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Path actual = outs.resolve(i + ".jsonl");
            if (!matches(dir.resolve(rows.get(i).run() + ".expected.jsonl"), actual)) {
                diverged.add(rows.get(i));
            }
            Files.delete(actual);
        }
        return diverged;
    }

    private static boolean matches(Path expected, Path actual) throws IOException {
        try (BufferedReader e = Files.newBufferedReader(expected); BufferedReader a = Files.newBufferedReader(actual)) {
            ConformanceReader actualReader;
            try {
                actualReader = new ConformanceReader(a::readLine, actual.toString());
            } catch (RuntimeException malformed) { // a bug that crashed the port before its header
                return false;
            }
            try {
                return ConformanceVerifier.verify(new ConformanceReader(e::readLine, expected.toString()),
                        actualReader, new ConformanceVerifier.Settings(0, 1, FieldFilter.ALL), n -> { }).matches();
            } catch (RuntimeException malformed) { // the port's error line after a crash
                return false;
            }
        }
    }

    private static List<String> bugs() throws IOException, InterruptedException {
        List<String> names = new ArrayList<>();
        for (String row : python(List.of("--list-bugs")).split("\n")) {
            names.add(row.substring(0, row.indexOf('\t')));
        }
        assertTrue(names.size() >= 20, "arcport.py plants at least 20 bugs, listed " + names);
        return names;
    }

    private static String python(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("python3", PORT.toString()));
        cmd.addAll(args);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            return fail("python3 is needed to run the Python port " + PORT + " and was not found ("
                    + e.getMessage() + "); install it, e.g. apt-get install -y python3");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("python3 " + String.join(" ", args) + " failed: " + out);
        }
        return out;
    }
}
