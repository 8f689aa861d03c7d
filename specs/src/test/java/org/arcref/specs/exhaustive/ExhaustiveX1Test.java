package org.arcref.specs.exhaustive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.arcref.arc.BrokenArcs;
import org.arcref.arc.ConcurrentArc;
import org.arcref.conformance.Transition;
import org.arcref.differential.Lockstep;
import org.arcref.exhaustive.ExhaustiveBounds;
import org.arcref.exhaustive.ExhaustiveExplorer;
import org.arcref.exhaustive.ExhaustiveResult;
import org.arcref.exhaustive.QuirkWitness;
import org.arcref.exhaustive.Violation;
import org.arcref.property.Property;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;

/**
 * X1, the exhaustive spec: on tiny configurations every reachable state of the spec within the depth bound is
 * visited once, and R1–R13, B1, the quirk switches' property and D1 (against the deterministic
 * {@link ConcurrentArc}) hold at every transition ({@link ExhaustiveExplorer}). The state counts are measured and
 * asserted, so that a change of the spec's behaviour, or of the encoding, shows. Each hand-made mutation of the
 * concurrent ARC ({@link BrokenArcs}) is found, at the depth of its shortest counterexample. With scatter ABDs (the
 * default since the spec models d.24; the tiny configuration's blocks are all scatter data) every demand read
 * allocates twice, header data and a private copy, so the cache overflows one operation sooner than when buffers
 * shared their data: the state counts grew and every mutation but the dropped esize update is found one operation
 * earlier than before (7, 5, 4 and 6 operations then).
 */
class ExhaustiveX1Test {

    /** The CI configuration: 3 keys, 1 sublist, stepped evictor, arc_c 1–2 blocks, depth 7. */
    static ExhaustiveBounds ci(boolean evictorRunsAfterEachOperation, Set<QuirkFix> fixes, int depth) {
        return ExhaustiveBounds.tiny(3, 1, evictorRunsAfterEachOperation, 1, 2, false, false, fixes, depth,
                10_000_000);
    }

    static ExhaustiveResult explore(ExhaustiveBounds bounds, Lockstep.ConcurrentArcs arcs) {
        ExhaustiveResult r = new ExhaustiveExplorer(bounds, arcs).run(() -> false, p -> { });
        System.out.println("X1: " + r.summary() + ", states per depth " + r.statesPerDepth());
        return r;
    }

    static void assertNoViolation(ExhaustiveBounds bounds, ExhaustiveResult r) {
        r.firstViolation().ifPresent(v -> {
            throw new AssertionError("X1: " + v.property() + " at depth " + v.depth() + ", shortest counterexample:\n"
                    + String.join("\n", v.toTrace(bounds)) + "\n" + v.message());
        });
    }

    /**
     * Every transition but {@link Transition#WRITE_READY_SHARES}: with scatter ABDs on (the default, d.24)
     * {@code arc_write_ready} never shares the writer's buffer; {@code arc conform} on {@code linear-abds} shows it.
     */
    @Test
    void x1EveryStateOfTheSteppedEvictorConfigurationWithinDepth7IsCheckedAndReaches42Of43Transitions() {
        ExhaustiveBounds bounds = ci(false, Set.of(), 7);
        ExhaustiveResult r = explore(bounds, ConcurrentArc::new);
        assertNoViolation(bounds, r);
        assertEquals(ExhaustiveResult.Stop.DEPTH_BOUND, r.stop());
        assertEquals(List.of(1L, 6L, 42L, 264L, 1374L, 5305L, 17111L, 50192L), r.statesPerDepth(),
                "distinct states per depth");
        assertEquals(551_465, r.transitions(), "transitions");
        assertEquals(List.of(Transition.WRITE_READY_SHARES), r.unreached(), "conformance transitions not reached");
        assertEquals(Map.of(QuirkWitness.ARC_P_GROWTH_PAST_HALF, 3, QuirkWitness.ARC_P_ABOVE_ARC_C, 2,
                QuirkWitness.REAP_AT_ARC_C_MIN, 3), r.quirkDepth(), "depth at which each 2.1.1 quirk first shows");
    }

    /** The free-running evictor adds R7 and R13 to the checks; nothing is ever left for an {@code evict} step. */
    @Test
    void x1EveryStateOfTheFreeRunningEvictorConfigurationWithinDepth6IsChecked() {
        ExhaustiveBounds bounds = ci(true, Set.of(), 6);
        ExhaustiveResult r = explore(bounds, ConcurrentArc::new);
        assertNoViolation(bounds, r);
        assertEquals(List.of(Transition.EVICTOR_STEP, Transition.WRITE_READY_SHARES), r.unreached(),
                "only an evict step that runs arc_evict_cb is out of reach: after every operation the evictor has"
                        + " run to quiescence (R13); and arc_share_buf on a write needs scatter ABDs off");
    }

    /** The quirk switches' property on every transition: with every fix applied, no quirk's effect is seen. */
    @Test
    void x1NoQuirkEffectWithItsFixApplied() {
        ExhaustiveBounds bounds = ci(false, QuirkFix.of(ZfsEngine.V2_1_1), 6);
        ExhaustiveResult r = explore(bounds, ConcurrentArc::new);
        assertNoViolation(bounds, r);
        assertEquals(Map.of(), r.quirkDepth(), "no quirk witness with the fixes applied");
    }

    /**
     * #12425 needs a block below {@code zfs_abd_scatter_min_size}, which the CI configuration's one size never is:
     * with two sizes (512 B linear, 1 KiB scatter) a write of 512 B completed with its hold is copied at depth 2
     * without the fix; with it no such copy is ever made and the writer's buffer is shared.
     */
    @Test
    void x1TheLinearWriteQuirkShowsWithTwoSizesAndNeverWithItsFix() {
        ExhaustiveBounds quirk = ExhaustiveBounds.tiny(2, 1, false, 1, 2, false, true, Set.of(), 4, 10_000_000);
        ExhaustiveResult without = explore(quirk, ConcurrentArc::new);
        assertNoViolation(quirk, without);
        assertEquals(2, without.quirkDepth().get(QuirkWitness.WRITE_COPIES_LINEAR_BLOCK), without.quirkDepth()
                .toString());
        assertTrue(without.unreached().contains(Transition.WRITE_READY_SHARES), without.unreached().toString());
        ExhaustiveBounds fixed = ExhaustiveBounds.tiny(2, 1, false, 1, 2, false, true,
                EnumSet.of(QuirkFix.WRITE_SHARES_LINEAR_12425), 4, 10_000_000);
        ExhaustiveResult with = explore(fixed, ConcurrentArc::new);
        assertNoViolation(fixed, with);
        assertFalse(with.quirkDepth().containsKey(QuirkWitness.WRITE_COPIES_LINEAR_BLOCK), with.quirkDepth()
                .toString());
        assertFalse(with.unreached().contains(Transition.WRITE_READY_SHARES), with.unreached().toString());
    }

    // ---- proof that it can fail: each mutation's shortest counterexample ----

    private static Violation shortestCounterexample(Lockstep.ConcurrentArcs broken) {
        ExhaustiveBounds bounds = ci(false, Set.of(), 8);
        ExhaustiveResult r = explore(bounds, broken);
        assertEquals(ExhaustiveResult.Stop.VIOLATION, r.stop(), "the mutation must be found");
        Violation v = r.violation();
        System.out.println("X1 found it at depth " + v.depth() + ":\n" + String.join("\n", v.toTrace(bounds)));
        return v;
    }

    @Test
    void x1FindsADroppedEsizeUpdateAtDepth1() {
        Violation v = shortestCounterexample(BrokenArcs::droppedEsizeUpdate);
        assertEquals(Property.D1, v.property());
        assertEquals(1, v.depth());
    }

    @Test
    void x1FindsWaitersNeverReleasedByCountAtDepth6() {
        Violation v = shortestCounterexample(BrokenArcs::waitersNeverReleasedByCount);
        assertEquals(Property.D1, v.property());
        assertEquals(6, v.depth());
    }

    @Test
    void x1FindsAnEvictorThatNeverReschedulesAtDepth4() {
        Violation v = shortestCounterexample(BrokenArcs::evictorNeverRescheduled);
        assertEquals(Property.D1, v.property());
        assertEquals(4, v.depth());
    }

    @Test
    void x1FindsIgnoredPrefetchLifetimesAtDepth3() {
        Violation v = shortestCounterexample(BrokenArcs::prefetchLifetimesIgnored);
        assertEquals(Property.D1, v.property());
        assertEquals(3, v.depth());
    }

    @Test
    void x1FindsTheWaiterCountWithoutMax11285AtDepth5() {
        Violation v = shortestCounterexample(BrokenArcs::waiterCountWithoutMax);
        assertEquals(Property.D1, v.property());
        assertEquals(5, v.depth());
        String failing = v.ops().get(v.depth() - 1).toTraceLine();
        assertTrue(failing.startsWith("complete"),
                "the failing operation allocates (arc_write_ready's header data, with scatter ABDs): " + failing);
    }
}
