package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * X1's walk for zfs-2.2.0's engine ({@link Walk22}, {@link Walk22#ciSettings()}, {@link Walk22#ciAlphabet()})
 * through the real arc.c: every transition out of every state of depth 0 to {@link #DEPTH} - 1 gives the same
 * conformance line, every header listed, as zfs-2.2.0's arc.c, and with the three switches as zfs-2.2.11's, run as
 * one tree with one fork per transition ({@link Walk22TreeCheck}). The states and transitions are counted, so that a
 * shorter walk fails. {@code -Doracle.large=true} does not go deeper: depth 7's walks (zfs-2.2.0's 1,574,574
 * transitions) did not fit a JVM given 6 GiB beside this machine's other builds (docs/oracle.md). The two
 * releases' walks run side by side, started by the first test that needs one, so that the second core is not idle
 * while one walk runs. The tree is shown trustworthy twice: a sample of its transitions, each run as a trace of its
 * own in a process of its own, writes the same lines; and the oracle with a planted change (header memory counted)
 * is caught, the transition and the field named.
 */
class Walk22OracleTest {

    private static final Map<ZfsRelease, CompletableFuture<Walk22TreeCheck>> WALKS = new EnumMap<>(ZfsRelease.class);
    /** One transition in this many is also run as a trace of its own. */
    private static final int SAMPLE = 1000;

    static final int DEPTH = 6;

    private static ConformanceSettings settings(ZfsRelease release) {
        return Walk22.ciSettings().withFixes(release.fixes());
    }

    /**
     * @return the release's walk to {@link #DEPTH}, handed out once; both releases' walks start side by side on
     *     the first call
     */
    private static synchronized CompletableFuture<Walk22TreeCheck> walk(ZfsRelease release) {
        if (WALKS.isEmpty()) {
            for (ZfsRelease r : List.of(ZfsRelease.V2_2_0, ZfsRelease.V2_2_11)) {
                WALKS.put(r, CompletableFuture.supplyAsync(() -> Walk22TreeCheck.walk(settings(r), DEPTH), task -> {
                    Thread t = new Thread(task, "walk of zfs-" + r);
                    t.setDaemon(true);
                    t.start();
                }));
            }
        }
        return WALKS.remove(release);
    }

    /** The walk's states and transitions to {@link #DEPTH}, per release, as measured, so that a change shows. */
    private static int[] counts(ZfsRelease release) {
        return release == ZfsRelease.V2_2_0 ? new int[] {86_666, 451_151} : new int[] {85_998, 448_033};
    }

    /**
     * Every transition through the tree; then every 1000th, run as a trace of its own (the first path of the state it
     * leaves, then its operation) by {@code --serve}, which runs each 2.2 trace in a fresh process, wrote the same
     * line in the tree, but for its {@code line} (there the transition's id, here the trace's line).
     */
    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void everyTransitionAgreesWithArcC(ZfsRelease release) {
        Walk22TreeCheck walk = walk(release).join();
        Walk22TreeCheck.Result r = walk.compare(Oracles.released(release), Map.of(),
                Runtime.getRuntime().availableProcessors(), id -> id % SAMPLE == 0);
        System.out.printf(Locale.ROOT, "walk of zfs-2.2.0's engine, zfs-%s: %d states to depth %d, %d transitions "
                + "agree with arc.c: walk %.1f s (beside the other release's), oracle %.1f s%n", release,
                walk.states(), DEPTH, walk.transitions(), walk.seconds(), r.seconds());
        assertNull(r.divergence(), r.divergence());
        int[] want = counts(release);
        assertEquals(want[0], walk.states(), "states");
        assertEquals(want[1], walk.transitions(), "transitions");
        assertEquals((walk.transitions() + SAMPLE - 1) / SAMPLE, r.kept().size());
        try (Oracles.Session oracle = Oracles.session(release)) {
            for (Map.Entry<Integer, String> tree : r.kept().entrySet()) {
                OracleOutput out = oracle.process().run("walk-" + tree.getKey(),
                        ConformanceTrace.text(settings(release), walk.path(tree.getKey())), true);
                assertEquals(OracleOutput.Ending.OK, out.ending(), out.message());
                assertEquals(withLine(tree.getValue()), withLine(out.lines().get(out.lines().size() - 1)),
                        "transition " + tree.getKey());
            }
        }
    }

    /**
     * The oracle counting header memory ({@code no_header_memory} off) differs at the tree's first transition (one
     * job: the lines in the tree's order).
     */
    @Test
    void aPlantedChangeOfArcCIsNamed() {
        Walk22TreeCheck.Result r = Walk22TreeCheck.walk(Walk22.ciSettings(), 2).compare(
                Oracles.released(ZfsRelease.V2_2_0), Map.of(OracleProcess.Switch.NO_HEADER_MEMORY, false), 1,
                id -> false);
        assertNotNull(r.divergence());
        assertTrue(r.divergence().startsWith("transition 0 (read 0 512 demand), arc_size: spec 512, zfs "),
                r.divergence());
    }

    /** @return the line with its {@code line} field 0 */
    private static String withLine(String line) {
        return line.replaceFirst(",\"line\":[0-9]+,", ",\"line\":0,");
    }
}
