package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.arcref.arc.ConcurrentArc;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.exhaustive.ExhaustiveBounds;
import org.arcref.exhaustive.ExhaustiveExplorer;
import org.arcref.exhaustive.ExhaustiveResult;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * X1 meets the real arc.c: every state the exhaustive walk of the CI configuration finds (3 keys, 1 sublist, stepped
 * evictor, {@code arc_c} 1–2 blocks, depth 7: specs' {@code ExhaustiveX1Test}) is reached through the oracle by
 * replaying the first paths that no other first path extends, and spec and oracle agree on the complete
 * conformance output (every header listed) after every operation of every replay: every transition of the tree
 * of first paths. And every transition the walk checks, each operation of the alphabet after each expanded state's
 * first path as a trace of its own: in the default run the walk to depth 6 (its transitions out of the states of
 * depths 0–5), with {@code -Doracle.large=true} the CI walk's, to depth 7 (all 551,465).
 */
class ExhaustiveReplayOracleTest {

    private static ExhaustiveBounds bounds(int depth) {
        return ExhaustiveBounds.tiny(3, 1, false, 1, 2, false, false, Set.of(), depth, 10_000_000);
    }

    @Test
    void everyStateOfTheX1WalkIsReachedThroughArcCAndAgrees() {
        ExhaustiveBounds bounds = bounds(7);
        ExhaustiveExplorer explorer = new ExhaustiveExplorer(bounds, ConcurrentArc::new);
        ExhaustiveResult walk = explorer.run(() -> false, p -> { });
        assertEquals(74_295, walk.states(), "the X1 CI configuration's state count (docs/exploration.md)");
        List<List<Operation>> leaves = explorer.firstPathLeaves();
        ConformanceSettings settings = new ConformanceSettings(bounds.config(), bounds.initialFreeMemory());
        long operations = 0;
        Set<List<Operation>> reached = new HashSet<>();
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_1_1)) {
            for (List<Operation> path : leaves) {
                OracleComparison.Result r = oracle.comparison().compare("x1", ConformanceTrace.text(settings, path),
                        true);
                assertTrue(r.agrees(), () -> r.describe() + "\npath: " + path.stream().map(Operation::toTraceLine)
                        .toList());
                operations += path.size();
                for (int i = 0; i <= path.size(); i++) {
                    reached.add(path.subList(0, i));
                }
            }
        }
        System.out.printf("X1 oracle replay: %d states, %d first-path leaves, %d operations replayed through arc.c in "
                + "%.1f s%n", walk.states(), leaves.size(), operations, (System.nanoTime() - start) / 1e9);
        // each state has one first path, and the replays pass through every prefix of theirs
        assertEquals(walk.states(), reached.size(), "states whose first path the replays pass through");
    }

    @Test
    void everyTransitionOfTheX1WalkAgreesWithArcC() {
        ExhaustiveBounds bounds = bounds(Boolean.getBoolean("oracle.large") ? 7 : 6);
        ExhaustiveExplorer explorer = new ExhaustiveExplorer(bounds, ConcurrentArc::new);
        ExhaustiveResult walk = explorer.run(() -> false, p -> { });
        ConformanceSettings settings = new ConformanceSettings(bounds.config(), bounds.initialFreeMemory());
        List<Operation> alphabet = bounds.alphabet().operations();
        long accepted = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_1_1)) {
            for (List<Operation> path : explorer.firstPaths()) {
                if (path.size() >= bounds.maxDepth()) {
                    continue; // not expanded
                }
                for (Operation op : alphabet) {
                    if (!acceptedAfter(bounds, path, op)) {
                        continue; // the spec rejects the operation there (B1 checks it leaves the state alone)
                    }
                    List<Operation> ops = new ArrayList<>(path);
                    ops.add(op);
                    OracleComparison.Result r = oracle.comparison().compare("x1", ConformanceTrace.text(settings, ops),
                            false);
                    assertTrue(r.agrees(), () -> r.describe() + "\npath: " + ops.stream().map(Operation::toTraceLine)
                            .toList());
                    accepted++;
                }
            }
        }
        System.out.printf("X1 oracle, every transition to depth %d: %d states, %d transitions through arc.c in %.1f s%n",
                bounds.maxDepth(), walk.states(), accepted, (System.nanoTime() - start) / 1e9);
        assertEquals(walk.transitions(), accepted, "every transition the walk checked");
    }

    /** @return whether the spec accepts {@code op} in the state {@code path} reaches */
    private static boolean acceptedAfter(ExhaustiveBounds bounds, List<Operation> path, Operation op) {
        ZfsArc spec = new ZfsArc(bounds.config(), new AdjustableMemory(bounds.initialFreeMemory()));
        path.forEach(p -> p.applyTo(spec));
        try {
            op.applyTo(spec);
            return true;
        } catch (IllegalArgumentException rejected) {
            return false;
        }
    }
}
