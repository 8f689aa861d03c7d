package org.arcref.specs.zfs;

import static org.arcref.specs.zfs.QuirkFixProperties.keysIn;
import static org.arcref.specs.zfs.QuirkFixProperties.stateOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Example;
import org.arcref.differential.Lockstep;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;

/**
 * Quirk O1, the 32-bit multiply of zfs-2.1.1's {@code arc_adapt}, happens without
 * {@link QuirkFix#ADAPT_MFU_64BIT_MULTIPLY_OURS} and never with it, in the spec and the concurrent ARC in lock step.
 * Its own class because each scenario builds 4 GiB of ghost state (about a minute under PIT's coverage), which the
 * mutation run of {@code org.arcref.zfs} leaves out of its tests (docs/concurrency-checks.md); the built-in trace
 * {@code quirk-adapt-multiply} shows the same quirk in the conformance suite.
 */
class AdaptMultiplyWrapTest {

    private static final long BIG = 16L << 20;
    private static final long SMALL = 128L << 10;

    /**
     * Builds MFU ghost = one 128 KiB header (key 0) and MRU ghost = exactly 4 GiB, so that an
     * MFU-ghost hit on key 0 computes {@code bytes * mult = 2^17 * (2^32 / 2^17) = 2^32}, which wraps
     * to 0 in a 32-bit {@code int}. The wrap needs a ghost list of at least 2 GiB, so the cache is
     * 8-24 GiB of 16 MiB blocks (sizes are only numbers here). Scatter ABDs are off
     * ({@code zfs_abd_scatter_enabled=0}): the quirk is in {@code arc_adapt}'s arithmetic, and the
     * set-up's counts (shrinks, ghost sizes) were worked out for blocks that cost their size once; with
     * scatter data every 16 MiB read also allocates, and adapts for, a transient copy, and the set-up
     * then fails to bring key 0 to the MFU ghost list within its 200 shrinks (tried). The
     * conformance trace {@code quirk-adapt-multiply} shows the quirk with scatter ABDs on.
     *
     * <p>The spec and the concurrent ARC in deterministic mode run in lock step ({@link Lockstep}, D1 after every
     * operation), so the assertions on {@code arc_p} after the ghost hit hold for both: the concurrent ARC's
     * {@code arc_adapt} ({@code ghostIncrement}) has the same three branches as the spec's.
     */
    private static Lockstep wrapScenario(Set<QuirkFix> fixes, boolean dampenerDisable) {
        Lockstep arc = new Lockstep(new ArcConfig(8L << 30, 24L << 30, BIG, 2 * BIG, 0, 1000, 1, 0, true, fixes,
                Tunables.defaults().withAbdScatterEnabled(false).withPDampenerDisable(dampenerDisable)));
        twice(arc, 0, SMALL);
        for (long k = 1000; k < 1512; k++) {
            twice(arc, k, BIG);
        }
        for (long k = 1; k <= 2048; k++) {
            arc.apply(new Operation.Read(k, BIG, ReadKind.DEMAND, false));
        }
        for (int shrinks = 0; stateOf(arc.snapshot(), 0) != ArcState.MFU_GHOST; shrinks++) {
            assertTrue(shrinks < 200, "scenario: key 0 must reach the MFU ghost list");
            arc.apply(new Operation.Shrink(64L << 20));
        }
        for (long k : keysIn(arc.snapshot(), ArcState.MFU_GHOST)) {
            if (k != 0) {
                arc.apply(new Operation.Free(k));
            }
        }
        List<Long> mruGhosts = keysIn(arc.snapshot(), ArcState.MRU_GHOST);
        assertTrue(mruGhosts.size() >= 256, "scenario: needs 256 MRU ghosts of 16 MiB, has " + mruGhosts.size());
        for (long k : mruGhosts.subList(256, mruGhosts.size())) {
            arc.apply(new Operation.Free(k));
        }
        ArcSnapshot s = arc.snapshot();
        assertEquals(4L << 30, s.state(ArcState.MRU_GHOST).size(), "scenario: MRU ghost size");
        assertEquals(SMALL, s.state(ArcState.MFU_GHOST).size(), "scenario: MFU ghost size");
        assertTrue(s.p() > s.c() >>> 4, "scenario: arc_p must be above arc_p_min, was " + s.p());
        return arc;
    }

    private static void twice(Lockstep arc, long key, long size) {
        arc.apply(new Operation.Read(key, size, ReadKind.DEMAND, false));
        arc.apply(new Operation.Tick(100));
        arc.apply(new Operation.Read(key, size, ReadKind.DEMAND, false));
    }

    /**
     * The MFU-ghost hit on key 0 after {@link #wrapScenario}, in {@code arc_adapt} (zfs-2.1.1 {@code arc.c}, lines
     * 5068-5098): {@code mult = mrug_size / mfug_size = 2^32 / 2^17 = 2^15} (5093), capped at 10 unless
     * {@code zfs_arc_p_dampener_disable} (5094-5095), {@code delta = MIN(bytes * mult, arc_p)} with {@code int
     * bytes = 2^17} and {@code int mult} (5097), {@code arc_p = MAX(arc_p_min, arc_p - delta)} (5098). The scenario
     * leaves {@code arc_c} = 24 GiB ({@code arc_p_min = arc_c >> 4} = 1.5 GiB) and {@code arc_p} = 20 GiB, so: with
     * the dampener disabled (the 2.1.1 default, line 460) the int product {@code 2^32} wraps to 0 and {@code arc_p}
     * stays (quirk O1); computed in 64 bits it is {@code 2^32} and {@code arc_p} drops to 16 GiB; with the dampener
     * on, {@code 2^17 * 10} fits an int either way and {@code arc_p} drops by 10 blocks. Only the first pair tells
     * the 2.1.1 multiply from the fixed one; the dampener pair pins the {@code MIN(mult, 10)} of each.
     *
     * @return {arc_p before, arc_p after, arc_c after} the hit
     */
    private static long[] mfuGhostHit(Lockstep arc) {
        long before = arc.snapshot().p();
        assertEquals(Outcome.GHOST_HIT_MFU, arc.apply(new Operation.Read(0, SMALL, ReadKind.DEMAND, false)));
        ArcSnapshot after = arc.snapshot();
        return new long[] {before, after.p(), after.c()};
    }

    @Example
    void quirkO1WithoutFixWrappedProductLeavesArcPUnchanged() {
        long[] p = mfuGhostHit(wrapScenario(EnumSet.noneOf(QuirkFix.class), true));
        assertEquals(p[0], p[1], "2.1.1 (O1): 2^17 * 2^15 wraps to 0 in an int, so arc_p stays");
    }

    @Example
    void quirkO1WithFixMfuGhostHitDropsArcPToItsMinimum() {
        long[] p = mfuGhostHit(wrapScenario(EnumSet.of(QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS), true));
        assertEquals(Math.max(p[2] >>> 4, p[0] - (1L << 32)), p[1],
                "O1 fixed: arc_p = MAX(arc_p_min, arc_p - MIN(2^32, arc_p))");
    }

    @Example
    void dampenerCapsTheMultiplierAtTen() {
        long[] p = mfuGhostHit(wrapScenario(EnumSet.noneOf(QuirkFix.class), false));
        assertEquals(Math.max(p[2] >>> 4, p[0] - 10 * SMALL), p[1],
                "zfs_arc_p_dampener_disable=0: mult = MIN(2^15, 10), so arc_p drops by 10 blocks");
    }

    @Example
    void dampenerCapsTheMultiplierAtTenWithO1Fixed() {
        long[] p = mfuGhostHit(wrapScenario(EnumSet.of(QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS), false));
        assertEquals(Math.max(p[2] >>> 4, p[0] - 10 * SMALL), p[1],
                "O1 fixed, zfs_arc_p_dampener_disable=0: mult = MIN(2^15, 10), so arc_p drops by 10 blocks");
    }
}
