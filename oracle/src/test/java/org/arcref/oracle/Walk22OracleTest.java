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
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * X1's walks for zfs-2.2.0's engine ({@link Walk22}, {@link Walk22#ciSettings()}) through the real arc.c, each a
 * {@link Tree}: {@link Walk22#ciAlphabet()} to depth 5 (6 with {@code -Doracle.large=true}) and
 * {@link Walk22#uncachedAlphabet()} to depth 4. Every
 * transition out of every state of depth 0 to the tree's depth - 1 gives the same conformance line, every header
 * listed, as zfs-2.2.0's arc.c, and with the three switches as zfs-2.2.11's, run as one tree with one fork per
 * transition ({@link Walk22TreeCheck}). The states and transitions are counted, so that a shorter walk fails. Depth
 * 6 (four times depth 5's transitions) is not the default: on a machine whose forks and page faults cost as this
 * one's do, its trees took 1,107 s for zfs-2.2.0 alone (docs/oracle.md). Depth 7's walks of the CI alphabet
 * (zfs-2.2.0's 1,574,574 transitions) did not fit a JVM given 6 GiB beside this machine's other builds. A tree's two
 * releases' walks run side by side, started by the first test that needs one, so that the second core is not idle
 * while one walk runs. The tree is shown trustworthy twice: a sample of its transitions, each run as a trace of its
 * own in a process of its own, writes the same lines; and the oracle with a planted change (header memory counted)
 * is caught, the transition and the field named.
 */
class Walk22OracleTest {

    private static final boolean LARGE = Boolean.getBoolean("oracle.large");

    /** A walk the test runs through arc.c: its alphabet, its depth and its counts as measured. */
    enum Tree {
        /** {@link Walk22#ciAlphabet()} to depth 5, or 6 with {@code -Doracle.large=true}. */
        CI(Walk22.ciAlphabet(), LARGE ? 6 : 5, LARGE ? new int[] {86_666, 451_151} : new int[] {24_795, 113_136},
                LARGE ? new int[] {85_998, 448_033} : new int[] {24_641, 112_614}),
        /** {@link Walk22#uncachedAlphabet()} to depth 4: the uncached state, which the CI alphabet never reaches. */
        UNCACHED(Walk22.uncachedAlphabet(), 4, new int[] {14_475, 60_043}, new int[] {14_427, 60_043});

        private final List<Operation> alphabet;
        private final int depth;
        private final int[] countsOf220;
        private final int[] countsOf2211;

        Tree(List<Operation> alphabet, int depth, int[] countsOf220, int[] countsOf2211) {
            this.alphabet = alphabet;
            this.depth = depth;
            this.countsOf220 = countsOf220;
            this.countsOf2211 = countsOf2211;
        }

        /** @return the walk's states and transitions for the release, as measured, so that a change shows */
        int[] counts(ZfsRelease release) {
            return release == ZfsRelease.V2_2_0 ? countsOf220 : countsOf2211;
        }
    }

    private static final Map<Tree, Map<ZfsRelease, CompletableFuture<Walk22TreeCheck>>> WALKS =
            new EnumMap<>(Tree.class);
    /** One transition in this many is also run as a trace of its own. */
    private static final int SAMPLE = 1000;

    private static ConformanceSettings settings(ZfsRelease release) {
        return Walk22.ciSettings().withFixes(release.fixes());
    }

    /**
     * @return the release's walk of the tree, handed out once; the tree's walks of both releases start side by side
     *     on the first call for it
     */
    private static synchronized CompletableFuture<Walk22TreeCheck> walk(Tree tree, ZfsRelease release) {
        return WALKS.computeIfAbsent(tree, t -> {
            Map<ZfsRelease, CompletableFuture<Walk22TreeCheck>> walks = new EnumMap<>(ZfsRelease.class);
            for (ZfsRelease r : List.of(ZfsRelease.V2_2_0, ZfsRelease.V2_2_11)) {
                walks.put(r, CompletableFuture.supplyAsync(() -> Walk22TreeCheck.walk(settings(r), t.alphabet,
                        t.depth), task -> {
                            Thread thread = new Thread(task, "walk of zfs-" + r + " to depth " + t.depth);
                            thread.setDaemon(true);
                            thread.start();
                        }));
            }
            return walks;
        }).remove(release);
    }

    /** {@link Tree#CI}'s transitions, checked as {@link #check} says. */
    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void everyTransitionAgreesWithArcC(ZfsRelease release) {
        check(Tree.CI, release);
    }

    /** {@link Tree#UNCACHED}'s transitions, checked as {@link #check} says. */
    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void everyUncachedTransitionAgreesWithArcC(ZfsRelease release) {
        check(Tree.UNCACHED, release);
    }

    /**
     * Every transition of the tree's walk through the tree; then every 1000th, run as a trace of its own (the first
     * path of the state it leaves, then its operation) by {@code --serve}, which runs each 2.2 trace in a fresh
     * process, wrote the same line in the tree, but for its {@code line} (there the transition's id, here the trace's
     * line).
     */
    private static void check(Tree tree, ZfsRelease release) {
        Walk22TreeCheck walk = walk(tree, release).join();
        Walk22TreeCheck.Result r = walk.compare(Oracles.released(release), Map.of(),
                Runtime.getRuntime().availableProcessors(), id -> id % SAMPLE == 0);
        System.out.printf(Locale.ROOT, "walk of zfs-2.2.0's engine, %s alphabet, zfs-%s: %d states to depth %d, %d "
                + "transitions agree with arc.c: walk %.1f s (beside the other release's), oracle %.1f s%n",
                tree, release, walk.states(), tree.depth, walk.transitions(), walk.seconds(), r.seconds());
        assertNull(r.divergence(), r.divergence());
        int[] want = tree.counts(release);
        assertEquals(want[0], walk.states(), "states");
        assertEquals(want[1], walk.transitions(), "transitions");
        assertEquals((walk.transitions() + SAMPLE - 1) / SAMPLE, r.kept().size());
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(release)) {
            for (Map.Entry<Integer, String> kept : r.kept().entrySet()) {
                OracleOutput out = oracle.process().run("walk-" + kept.getKey(),
                        ConformanceTrace.text(settings(release), walk.path(kept.getKey())), true);
                assertEquals(OracleOutput.Ending.OK, out.ending(), out.message());
                assertEquals(withLine(kept.getValue()), withLine(out.lines().get(out.lines().size() - 1)),
                        "transition " + kept.getKey());
            }
        }
        System.out.printf(Locale.ROOT, "  its %d sampled transitions, each a trace of its own: %.1f s%n",
                r.kept().size(), (System.nanoTime() - start) / 1e9);
    }

    /**
     * The oracle counting header memory ({@code no_header_memory} off) differs at the tree's first transition (one
     * job: the lines in the tree's order).
     */
    @Test
    void aPlantedChangeOfArcCIsNamed() {
        Walk22TreeCheck.Result r = Walk22TreeCheck.walk(Walk22.ciSettings(), Walk22.ciAlphabet(), 2).compare(
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
