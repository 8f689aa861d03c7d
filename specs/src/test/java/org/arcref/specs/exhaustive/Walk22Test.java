package org.arcref.specs.exhaustive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;

/**
 * X1 for zfs-2.2.0's engine in the default build: the walk of {@link Walk22#ciSettings()} and
 * {@link Walk22#ciAlphabet()} to depth 5, R22 and B1 on every transition, with and without the 2.2.x fixes; the
 * oracle module runs its transitions to depth 6 through the real arc.c ({@code Walk22OracleTest}).
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
