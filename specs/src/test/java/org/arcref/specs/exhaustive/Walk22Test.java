package org.arcref.specs.exhaustive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Zfs22Arc;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;

/**
 * X1 for zfs-2.2.0's engine in the default build: the walks of {@link Walk22#ciSettings()} with
 * {@link Walk22#ciAlphabet()} to depth 5 and with {@link Walk22#uncachedAlphabet()} to depth 4, R22 and B1 on every
 * transition, with and without the 2.2.x fixes; the oracle module runs the first's transitions to depth 6 and the
 * second's to depth 4 through the real arc.c ({@code Walk22OracleTest}).
 */
class Walk22Test {

    @Test
    void everyTransitionToDepthFiveKeepsTheInvariants() {
        for (var fixes : List.of(java.util.Set.<QuirkFix>of(), QuirkFix.of(ZfsEngine.V2_2_0))) {
            Walk22 walk = new Walk22(Walk22.ciSettings().withFixes(fixes), Walk22.ciAlphabet(), 5).run();
            assertTrue(walk.states() > 20_000, "states: " + walk.states());
            assertTrue(walk.edges().size() > 100_000, "transitions: " + walk.edges().size());
        }
    }

    /**
     * {@link Walk22#uncachedAlphabet()} to depth 4 (the depth {@code Walk22OracleTest} runs it to), with and without
     * the fixes: every transition keeps the invariants, and the walk reaches the uncached state: a header listed in
     * it, an uncached hit, an eviction from it (the evict zthr's flush), and uncached writes completed into it.
     */
    @Test
    void theUncachedWalkKeepsTheInvariantsAndReachesTheUncachedState() {
        for (var fixes : List.of(java.util.Set.<QuirkFix>of(), QuirkFix.of(ZfsEngine.V2_2_0))) {
            int[] seen = new int[4];
            Walk22 walk = new Walk22(Walk22.ciSettings().withFixes(fixes), Walk22.uncachedAlphabet(), 4).run(
                    (edge, outcome, evicted, after) -> {
                        if (after.headers().stream().anyMatch(h -> h.state() == ArcState.UNCACHED)) {
                            seen[0]++;
                        }
                        if (outcome == Outcome.HIT_UNCACHED) {
                            seen[1]++;
                        }
                        if (evicted.stream().anyMatch(e -> e.from() == ArcState.UNCACHED)) {
                            seen[2]++;
                        }
                        if (outcome == Outcome.WRITE_COMPLETED && after.headers().stream().anyMatch(h ->
                                h.key() == ((Operation.Complete) edge.op()).key() && h.state() == ArcState.UNCACHED)) {
                            seen[3]++;
                        }
                    });
            assertTrue(seen[0] > 0 && seen[1] > 0 && seen[2] > 0 && seen[3] > 0, "transitions with an uncached "
                    + "header listed, an uncached hit, an eviction from uncached, a write completed to uncached: "
                    + java.util.Arrays.toString(seen));
            assertTrue(walk.states() > 10_000, "states: " + walk.states());
        }
    }

    /**
     * Two states alike but for the time since the evict zthr's last flush of uncached headers: an uncached prefetch
     * after a tick past the flush period, and the same prefetch again right after a flush. {@code evict} runs the
     * zthr's callback in the first and finds nothing to do in the second; the uncached walk keeps them apart.
     */
    @Test
    void theUncachedWalkTellsApartTheTimeSinceTheLastFlush() {
        Operation prefetch = new Operation.Read(0, 512, ReadKind.PREFETCH, false, BufType.DATA, true);
        List<Operation> late = List.of(new Operation.Tick(1000), prefetch);
        List<Operation> flushed = List.of(prefetch, new Operation.Tick(1000), new Operation.Evict(), prefetch);
        assertEquals(arcAfter(late).snapshot().headers(), arcAfter(flushed).snapshot().headers());
        assertEquals(Outcome.EVICTOR_RAN, new Operation.Evict().applyTo(arcAfter(late)));
        assertEquals(Outcome.IDLE, new Operation.Evict().applyTo(arcAfter(flushed)));
        Walk22 walk = new Walk22(Walk22.ciSettings(), Walk22.uncachedAlphabet(), flushed.size()).run();
        assertNotEquals(stateAfter(walk, late), stateAfter(walk, flushed));
    }

    private static Zfs22Arc arcAfter(List<Operation> path) {
        Zfs22Arc arc = (Zfs22Arc) Walk22.ciSettings().newArc(e -> { });
        path.forEach(op -> op.applyTo(arc));
        return arc;
    }

    /** @return the state the walk reaches from the empty ARC by the path, along its transitions */
    private static int stateAfter(Walk22 walk, List<Operation> path) {
        int state = 0;
        for (Operation op : path) {
            int from = state;
            state = walk.edges().stream().filter(e -> e.from() == from && e.op().equals(op)).findFirst()
                    .orElseThrow().to();
        }
        return state;
    }

    @Test
    void theWalkFoldsStatesByWhatALaterOperationReads() {
        Walk22 walk = new Walk22(Walk22.ciSettings(), Walk22.ciAlphabet(), 4).run();
        assertEquals(6_160, walk.states());
        assertEquals(24_413, walk.edges().size());
        assertEquals(walk.states(), walk.firstPaths().size());
    }

    /**
     * The depth-first order lists every transition once, each after the transitions that lead from the empty ARC to
     * the state it leaves along that state's first path: what the oracle's tree form needs.
     */
    @Test
    void depthFirstFollowsTheFirstPaths() {
        Walk22 walk = new Walk22(Walk22.ciSettings(), Walk22.ciAlphabet(), 3).run();
        List<Walk22.Edge> order = walk.depthFirst();
        assertEquals(walk.edges().size(), order.size());
        assertEquals(new HashSet<>(walk.edges()), new HashSet<>(order));
        assertEquals(walk.states() - 1, order.stream().filter(Walk22.Edge::discovers).count());
        List<List<Operation>> paths = walk.firstPaths();
        Deque<Integer> along = new ArrayDeque<>(List.of(0));
        for (Walk22.Edge e : order) {
            while (!along.isEmpty() && along.peek() != e.from()) {
                along.pop();
            }
            assertEquals(walk.depth(e.from()) + 1, along.size(), "transition " + e.id() + " follows its state's path");
            if (e.discovers()) {
                List<Operation> extended = new ArrayList<>(paths.get(e.from()));
                extended.add(e.op());
                assertEquals(extended, paths.get(e.to()));
                along.push(e.to());
            }
        }
    }

    @Test
    void onlyZfs22sEngineIsWalked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Walk22(ConformanceSettings.defaults(), Walk22.ciAlphabet(), 3));
        assertTrue(e.getMessage().startsWith("settings must be zfs-2.2.0's engine's"), e.getMessage());
    }
}
