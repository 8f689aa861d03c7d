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
 * <p>Contract. The clean port's {@code --headers} output of every built-in trace of {@code INDEX} (without fixes
 * and with every quirk fix), and of every demonstration trace ({@code port-bugs/*.ops}), matches the spec's ({@link ConformanceVerifier}, everything
 * compared). Each planted bug ({@code arcport.py --list-bugs}) is caught by some built-in trace's {@code --headers}
 * output, except the bugs of {@link #MISSED}, which no built-in catches; for those the test asserts that none does,
 * so that it fails naming the bug when a new built-in starts catching it and the list must shrink, and that the
 * bug's demonstration trace {@code port-bugs/BUG.ops} catches it (so each is a real bug, and its trace shows the
 * setting a built-in needs). Where {@code python3} is missing the test fails naming the install command.
 *
 * <p>Implementation overview. The spec's outputs are written once to a temporary folder from the traces
 * ({@link ConformanceRun#lines}); the traces' texts go beside them for the port. The port then runs once per bug
 * and set of traces (and once clean) in its {@code --batch} mode, one Python process writing one output per trace,
 * and each output is verified against the spec's with {@link ConformanceVerifier}, stopping at the first divergent
 * line; for a bug a built-in must catch, the traces after the first that does are not verified.
 */
class PortBugsTest {

    /**
     * The planted bugs no built-in trace catches, each with what a trace needs to catch it (its demonstration trace,
     * {@code port-bugs/BUG.ops}, has it).
     */
    static final Set<String> MISSED = Set.of(
            "sublist-hash-64bit", // zfs_multilist_num_sublists=3 (not a power of two), a key whose sublist differs
            "sublist-hash-signed32", // zfs_multilist_num_sublists=3, a key whose hash has bit 31 set
            "random-index-64bit", // zfs_multilist_num_sublists=3 with eviction
            "random-index-signed32", // zfs_multilist_num_sublists=3 with eviction
            "hash-lock-4096", // two keys of one hash lock whose hashes differ in bit 11 (981 and 2286)
            "write-takes-hash-lock", // arc_write_ready waiting at SEVERE beside an evictable header of its lock
            "mutex-miss-counts-batch", // zfs_arc_evict_batch_limit=1 and a mutex_miss in the visit
            "batch-limit-counts-skips", // zfs_arc_evict_batch_limit=1 and a young prefetch skipped in the visit
            "mintime-as-62ms", // hz=300: hz >> 4 = 18 ticks, MSEC_TO_TICK(62) = 19
            "ms-to-tick-floor", // a lifetime not a whole number of ticks: hz=300 arc_min_prefetch_ms=1001
            "ms-to-tick-int32", // arc_min_prefetch_ms * hz >= 2^31: arc_min_prefetch_ms=3000000
            "ms-to-tick-ignores-hz", // a prefetch lifetime at hz other than 1000: hz=100
            "evict-total-no-ghosts", // a pass that only destroys ghosts while arc_size > arc_c (all else held)
            "evict-mru-target-no-anon", // pending writes while MRU is evicted
            "evict-count-u32", // more than 4 GiB evicted (300 reads of 16 MiB through 64 MiB)
            "reap-no-grow-uses-shrink-shift", // a reap at 0 < available < arc_c >> arc_no_grow_shift, >= arc_c >> 7
            "overwrite-keeps-sublist", // an overwrite to a key of another sublist (more than one sublist)
            "headers-unsigned-key-order"); // held or pending headers with negative and positive keys

    private static final Path PORT = Path.of("src/test/python/arcport.py");
    /** For each bug of {@link #MISSED}, {@code BUG.ops}: a trace with the setting or boundary that catches it. */
    private static final Path DEMOS = Path.of("src/test/resources/org/arcref/cli/port-bugs");

    /** The size of a spec output above which a trace is tried last (3 built-ins make 37.5 of their 38.3 MB). */
    private static final long LARGE = 1 << 20;

    /** The suffix of a built-in's outputs with every quirk fix of zfs-2.1.1's engine. */
    private static final String FIXED = "+fixes";

    @TempDir
    static Path dir;

    private static List<String> builtins;
    private static List<String> demos;

    @BeforeAll
    static void writeExpectedOutputs() throws IOException {
        builtins = ConformanceTrace.builtinNames();
        for (String name : builtins) {
            Files.writeString(dir.resolve(name + ".ops"), ConformanceTrace.builtinText(name), StandardCharsets.UTF_8);
            writeSpecOutput(ConformanceTrace.builtin(name), name, Set.of());
            writeSpecOutput(ConformanceTrace.builtin(name), name + FIXED, QuirkFix.of(ZfsEngine.V2_1_1));
        }
        demos = new ArrayList<>();
        try (var files = Files.list(DEMOS)) {
            files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".ops")).sorted()
                    .forEach(f -> demos.add(f.substring(0, f.length() - ".ops".length())));
        }
        for (String name : demos) {
            Files.copy(DEMOS.resolve(name + ".ops"), dir.resolve(name + ".ops"));
            writeSpecOutput(ConformanceTrace.read(dir.resolve(name + ".ops")), name, Set.of());
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
    void cleanPortMatchesTheSpecOnEveryBuiltinAndEveryDemonstrationTrace() throws Exception {
        assertEquals(List.of(), caughtBy(null, builtins, false), "the clean port diverges from the spec on these "
                + "built-in traces");
        assertEquals(List.of(), caughtBy(null, demos, false), "the clean port diverges from the spec on these traces "
                + "of " + DEMOS);
        List<String> fixed = builtins.stream().map(name -> name + FIXED).toList();
        assertEquals(List.of(), caughtBy(null, fixed, false), "the clean port with every quirk fix diverges from the "
                + "spec with them on these built-in traces");
    }

    @Test
    void eachPlantedBugIsCaughtByABuiltinUnlessListedAsMissed() throws Exception {
        List<String> bugs = bugs();
        assertTrue(bugs.containsAll(MISSED), "MISSED names bugs arcport.py does not plant: " + MISSED);
        Map<String, List<String>> wrong = new LinkedHashMap<>();
        for (String bug : bugs) {
            boolean missed = MISSED.contains(bug);
            List<String> caught = caughtBy(bug, builtins, !missed);
            if (caught.isEmpty() != missed) {
                wrong.put(bug, caught);
            }
        }
        assertTrue(wrong.isEmpty(), "planted bugs whose detection by the built-in traces is not as MISSED says "
                + "(empty: no built-in catches it; otherwise the first trace that does; update MISSED): " + wrong);
    }

    @Test
    void eachMissedBugIsCaughtByItsDemonstrationTrace() throws Exception {
        assertEquals(new TreeSet<>(MISSED), new TreeSet<>(demos), "one trace in " + DEMOS + " per MISSED bug");
        Map<String, List<String>> notCaught = new LinkedHashMap<>();
        for (String bug : MISSED) {
            if (caughtBy(bug, List.of(bug), false).isEmpty()) {
                notCaught.put(bug, List.of(bug + ".ops"));
            }
        }
        assertTrue(notCaught.isEmpty(), "missed bugs their demonstration trace does not catch: " + notCaught);
    }

    /**
     * @return the traces whose {@code --headers} output diverges from the spec's with {@code bug} planted (null:
     *     none); with {@code firstOnly} only the first, trying the traces whose spec output is under
     *     {@link #LARGE} bytes before the others
     */
    private static List<String> caughtBy(String bug, List<String> traces, boolean firstOnly)
            throws IOException, InterruptedException {
        if (!firstOnly) {
            return caughtByEach(bug, traces, false);
        }
        List<String> small = new ArrayList<>();
        List<String> large = new ArrayList<>();
        for (String name : traces) {
            (Files.size(dir.resolve(name + ".expected.jsonl")) < LARGE ? small : large).add(name);
        }
        List<String> caught = caughtByEach(bug, small, true);
        return caught.isEmpty() ? caughtByEach(bug, large, true) : caught;
    }

    /** @return {@link #caughtBy} for one run of the port over {@code traces} */
    private static List<String> caughtByEach(String bug, List<String> traces, boolean firstOnly)
            throws IOException, InterruptedException {
        Path outs = Files.createTempDirectory(dir, bug == null ? "clean" : bug);
        StringBuilder spec = new StringBuilder();
        for (String name : traces) {
            boolean fixed = name.endsWith(FIXED);
            String trace = fixed ? name.substring(0, name.length() - FIXED.length()) : name;
            spec.append(bug == null ? "-" : bug).append('\t').append(dir.resolve(trace + ".ops")).append('\t')
                    .append(outs.resolve(name + ".jsonl")).append('\t')
                    .append(fixed ? String.join(",", QuirkFix.of(ZfsEngine.V2_1_1).stream().map(Enum::name).toList())
                            : "").append('\n');
        }
        Path batch = outs.resolve("batch.tsv");
        Files.writeString(batch, spec.toString());
        python(List.of("--batch", batch.toString(), "--headers"));
        List<String> caught = new ArrayList<>();
        for (String name : traces) {
            Path actual = outs.resolve(name + ".jsonl");
            if (!(firstOnly && !caught.isEmpty()) && !matches(dir.resolve(name + ".expected.jsonl"), actual)) {
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
