package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * X1 meets the real arc.c: every state the exhaustive walk of the CI configuration finds (3 keys, 1 sublist, stepped
 * evictor, {@code arc_c} 1–2 blocks, depth 7: specs' {@code ExhaustiveX1Test}) is reached through the oracle by
 * replaying the first paths that no other first path extends, and spec and oracle agree on the complete
 * conformance output (every header listed) after every operation of every replay: every transition of the tree
 * of first paths. With {@code -Doracle.large=true}, every transition the walk checks: each operation of the alphabet
 * after each expanded state's first path, as a trace of its own.
 */
class ExhaustiveReplayOracleTest {

    private static final ExhaustiveBounds BOUNDS = ExhaustiveBounds.tiny(3, 1, false, 1, 2, false, false, Set.of(), 7,
            10_000_000);

    @Test
    void everyStateOfTheX1WalkIsReachedThroughArcCAndAgrees() {
        ExhaustiveBounds bounds = BOUNDS;
        ExhaustiveExplorer explorer = new ExhaustiveExplorer(bounds, ConcurrentArc::new);
        ExhaustiveResult walk = explorer.run(() -> false, p -> { });
        assertEquals(74_295, walk.states(), "the X1 CI configuration's state count (docs/exploration.md)");
        List<List<Operation>> leaves = explorer.firstPathLeaves();
        ConformanceSettings settings = new ConformanceSettings(bounds.config(), bounds.initialFreeMemory());
        long operations = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.released2_1_1()) {
            for (List<Operation> path : leaves) {
                OracleComparison.Result r = oracle.comparison().compare("x1", ConformanceTrace.text(settings, path),
                        true);
                assertTrue(r.agrees(), () -> r.describe() + "\npath: " + path.stream().map(Operation::toTraceLine)
                        .toList());
                operations += path.size();
            }
        }
        // every state but the root ends one operation of the tree of first paths; a leaf's path replays its own
        long treeTransitions = walk.states() - 1;
        System.out.printf("X1 oracle replay: %d states, %d first-path leaves, %d tree transitions, %d operations "
                + "replayed through arc.c in %.1f s%n", walk.states(), leaves.size(), treeTransitions, operations,
                (System.nanoTime() - start) / 1e9);
        assertTrue(operations >= treeTransitions, "every tree transition replayed");
    }

    @Test
    void everyTransitionOfTheX1WalkAgreesWithArcC() {
        Assumptions.assumeTrue(Boolean.getBoolean("oracle.large"), "a longer check: -Doracle.large=true");
        ExhaustiveExplorer explorer = new ExhaustiveExplorer(BOUNDS, ConcurrentArc::new);
        ExhaustiveResult walk = explorer.run(() -> false, p -> { });
        ConformanceSettings settings = new ConformanceSettings(BOUNDS.config(), BOUNDS.initialFreeMemory());
        List<Operation> alphabet = BOUNDS.alphabet().operations();
        long accepted = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.released2_1_1()) {
            for (List<Operation> path : explorer.firstPaths()) {
                if (path.size() >= BOUNDS.maxDepth()) {
                    continue; // not expanded
                }
                for (Operation op : alphabet) {
                    if (!acceptedAfter(path, op)) {
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
        System.out.printf("X1 oracle, every transition: %d states, %d transitions through arc.c in %.1f s%n",
                walk.states(), accepted, (System.nanoTime() - start) / 1e9);
        assertEquals(walk.transitions(), accepted, "every transition the walk checked");
    }

    /** @return whether the spec accepts {@code op} in the state {@code path} reaches */
    private static boolean acceptedAfter(List<Operation> path, Operation op) {
        ZfsArc spec = new ZfsArc(BOUNDS.config(), new AdjustableMemory(BOUNDS.initialFreeMemory()));
        path.forEach(p -> p.applyTo(spec));
        try {
            op.applyTo(spec);
            return true;
        } catch (IllegalArgumentException rejected) {
            return false;
        }
    }
}
