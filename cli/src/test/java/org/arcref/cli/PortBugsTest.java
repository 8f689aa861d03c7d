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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.arcref.conformance.ConformanceReader;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.ConformanceVerifier;
import org.arcref.conformance.FieldFilter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the conformance suite against a port in another language: {@code cli/src/test/python/arcport.py}, a Python
 * port of the zfs-2.1.1 engine with planted port bugs (docs/porting.md, "Checking a port: planted port bugs").
 *
 * <p>Contract. The clean port's {@code --headers} output of every built-in trace of {@code INDEX} matches the
 * spec's ({@link ConformanceVerifier}, everything compared). Each planted bug ({@code arcport.py --list-bugs}) is
 * caught by some built-in trace's {@code --headers} output, except the bugs of {@link #MISSED}, which no built-in
 * catches; for those the test asserts that none does, so that it fails naming the bug when a new built-in starts
 * catching it and the list must shrink. Where {@code python3} is missing the test fails naming the install command.
 *
 * <p>Implementation overview. The spec's outputs are written once to a temporary folder from the built-in traces
 * ({@link ConformanceRun#lines}); the traces' texts go beside them for the port. The port then runs once per bug
 * (and once clean) in its {@code --batch} mode, one Python process writing one output per trace, and each output is
 * verified against the spec's with {@link ConformanceVerifier}, stopping at the first divergent line.
 */
class PortBugsTest {

    /** The planted bugs no built-in trace catches, each with what a trace would need to catch it. */
    static final Set<String> MISSED = Set.of(
            "sublist-hash-64bit", // zfs_multilist_num_sublists=3 (not a power of two)
            "sublist-hash-signed32", // zfs_multilist_num_sublists=3
            "random-index-64bit", // zfs_multilist_num_sublists=3 with eviction
            "random-index-signed32", // zfs_multilist_num_sublists=3 with eviction
            "hash-lock-4096", // two keys of one hash lock whose hashes differ in bit 11
            "write-takes-hash-lock", // arc_write_ready waiting while a header of the write's key's lock is evictable
            "mutex-miss-counts-batch", // a mutex_miss in a sublist visit that reaches zfs_arc_evict_batch_limit
            "mintime-as-62ms", // hz=300 (hz >> 4 = 18, MSEC_TO_TICK(62) = 19)
            "ms-to-tick-floor", // a lifetime not a whole number of ticks: hz=300, or arc_min_prefetch_ms=1001
            "ms-to-tick-int32", // arc_min_prefetch_ms * hz >= 2^31, e.g. arc_min_prefetch_ms=3000000
            "ms-to-tick-ignores-hz", // a prefetch lifetime at hz other than 1000, e.g. hz=100
            "batch-limit-counts-skips", // evict_skip of young prefetches in a visit that reaches the batch limit
            "evict-total-no-ghosts", // a pass that destroys ghosts only while arc_size > arc_c
            "evict-mru-target-no-anon", // pending writes when MRU eviction's anon + mru - arc_p is the smaller
            "evict-count-u32", // more than 4 GiB evicted
            "reap-no-grow-uses-shrink-shift"); // a reap with 0 <= available < arc_c >> arc_no_grow_shift, above >> 7

    private static final Path PORT = Path.of("src/test/python/arcport.py");

    private static List<String> traces;

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeExpectedOutputs() throws IOException {
        traces = ConformanceTrace.builtinNames();
        for (String name : traces) {
            ConformanceTrace trace = ConformanceTrace.builtin(name);
            Files.writeString(dir.resolve(name + ".ops"), ConformanceTrace.builtinText(name), StandardCharsets.UTF_8);
            ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults());
            Iterator<String> lines = ConformanceRun.lines(trace, settings, true);
            try (var out = Files.newBufferedWriter(dir.resolve(name + ".expected.jsonl"))) {
                while (lines.hasNext()) {
                    out.write(lines.next());
                    out.write('\n');
                }
            }
        }
    }

    @Test
    void cleanPortMatchesEveryBuiltinAndEachPlantedBugIsCaughtUnlessListedAsMissed() throws Exception {
        assertEquals(List.of(), caughtBy(null), "the clean port diverges from the spec on these built-in traces");
        List<String> bugs = bugs();
        assertTrue(bugs.containsAll(MISSED), "MISSED names bugs arcport.py does not plant: " + MISSED);
        Map<String, List<String>> wrong = new LinkedHashMap<>();
        for (String bug : bugs) {
            List<String> caught = caughtBy(bug);
            if (caught.isEmpty() != MISSED.contains(bug)) {
                wrong.put(bug, caught);
            }
        }
        assertTrue(wrong.isEmpty(), "planted bugs whose detection by the built-in traces is not as MISSED says "
                + "(empty: no built-in catches it; otherwise the first trace that does; update MISSED): " + wrong);
    }

    /**
     * @return the built-in traces whose output diverges from the spec's with {@code bug} planted (null: none); for
     *     a bug not in {@link #MISSED}, only the first
     */
    private static List<String> caughtBy(String bug) throws IOException, InterruptedException {
        Path outs = Files.createDirectories(dir.resolve(bug == null ? "clean" : bug));
        StringBuilder spec = new StringBuilder();
        for (String name : traces) {
            spec.append(bug == null ? "-" : bug).append('\t').append(dir.resolve(name + ".ops")).append('\t')
                    .append(outs.resolve(name + ".jsonl")).append('\n');
        }
        Path batch = outs.resolve("batch.tsv");
        Files.writeString(batch, spec.toString());
        python(List.of("--batch", batch.toString(), "--headers"));
        List<String> caught = new ArrayList<>();
        for (String name : traces) {
            Path actual = outs.resolve(name + ".jsonl");
            // one catching trace settles a bug MISSED does not list; the clean port and MISSED need every trace
            boolean settled = bug != null && !MISSED.contains(bug) && !caught.isEmpty();
            if (!settled && !matches(dir.resolve(name + ".expected.jsonl"), actual)) {
                caught.add(name);
            }
            Files.delete(actual);
        }
        return caught;
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
