package org.arcref.specs.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;

/**
 * Each known 2.1.1 quirk (fact sheet (g)) happens without its {@link QuirkFix} and never with it.
 */
class QuirkFixProperties {

    // ---- #14137: arc_p over-growth during warm-up ----

    /** A warm-up stream: writes (completed at once) and demand reads of new blocks only. */
    @Provide
    Arbitrary<List<long[]>> warmups() {
        return Arbitraries.longs().between(1, 4).map(units -> units * 512)
                .flatMap(size -> Arbitraries.of(0L, 1L).map(w -> new long[] {w, size}))
                .list().ofMinSize(20).ofMaxSize(200);
    }

    private static List<ArcSnapshot> warmUp(Set<QuirkFix> fixes, List<long[]> stream) {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 64 << 10, 2048).withFixes(fixes), MemoryModel.plentiful());
        List<ArcSnapshot> after = new ArrayList<>();
        long key = 0;
        for (long[] step : stream) {
            if (step[0] == 1) {
                arc.write(key, step[1]);
                arc.completeWrite(key, false);
            } else {
                arc.read(key, step[1], ReadKind.DEMAND, false);
            }
            key++;
            after.add(arc.snapshot());
        }
        return after;
    }

    @Property
    void quirk14137FixedArcPStaysNearHalfOfArcCDuringWarmUp(@ForAll("warmups") List<long[]> stream) {
        for (ArcSnapshot s : warmUp(EnumSet.of(QuirkFix.ARC_P_GROWTH_CAP_14137), stream)) {
            assertTrue(Long.compareUnsigned(s.p(), (s.c() >>> 1) + 2048) <= 0,
                    "#14137 fixed: arc_p must stay below arc_c/2 + one block during warm-up, was p=" + s.p()
                            + " c=" + s.c());
        }
    }

    @Example
    void quirk14137WithoutFixArcPReachesArcCDuringWarmUp() {
        List<long[]> stream = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            stream.add(new long[] {i % 2, 1024});
        }
        List<ArcSnapshot> after = warmUp(EnumSet.noneOf(QuirkFix.class), stream);
        assertTrue(after.stream().anyMatch(s -> Long.compareUnsigned(s.p(), (s.c() >>> 1) + 2048) > 0),
                "2.1.1: sequential warm-up must drive arc_p beyond arc_c/2 + one block, toward arc_c (#14120)");
    }

    // ---- O1: the 32-bit multiply in arc_adapt ----

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
     */
    private static ZfsArc wrapScenario(Set<QuirkFix> fixes) {
        return wrapScenario(fixes, org.arcref.zfs.Tunables.defaults());
    }

    private static ZfsArc wrapScenario(Set<QuirkFix> fixes, org.arcref.zfs.Tunables tunables) {
        ZfsArc arc = new ZfsArc(new ArcConfig(8L << 30, 24L << 30, BIG, 2 * BIG, 0, 1000, 1, 0, true, fixes,
                tunables.withAbdScatterEnabled(false)), MemoryModel.plentiful());
        twice(arc, 0, SMALL);
        for (long k = 1000; k < 1512; k++) {
            twice(arc, k, BIG);
        }
        for (long k = 1; k <= 2048; k++) {
            arc.read(k, BIG, ReadKind.DEMAND, false);
        }
        for (int shrinks = 0; stateOf(arc, 0) != ArcState.MFU_GHOST; shrinks++) {
            assertTrue(shrinks < 200, "scenario: key 0 must reach the MFU ghost list");
            arc.reduceTargetSize(64L << 20);
        }
        for (long k : keysIn(arc, ArcState.MFU_GHOST)) {
            if (k != 0) {
                arc.free(k);
            }
        }
        List<Long> mruGhosts = keysIn(arc, ArcState.MRU_GHOST);
        assertTrue(mruGhosts.size() >= 256, "scenario: needs 256 MRU ghosts of 16 MiB, has " + mruGhosts.size());
        for (long k : mruGhosts.subList(256, mruGhosts.size())) {
            arc.free(k);
        }
        ArcSnapshot s = arc.snapshot();
        assertEquals(4L << 30, s.state(ArcState.MRU_GHOST).size(), "scenario: MRU ghost size");
        assertEquals(SMALL, s.state(ArcState.MFU_GHOST).size(), "scenario: MFU ghost size");
        assertTrue(s.p() > s.c() >>> 4, "scenario: arc_p must be above arc_p_min, was " + s.p());
        return arc;
    }

    private static void twice(ZfsArc arc, long key, long size) {
        arc.read(key, size, ReadKind.DEMAND, false);
        arc.tick(100);
        arc.read(key, size, ReadKind.DEMAND, false);
    }

    @Example
    void quirkO1WithoutFixWrappedProductLeavesArcPUnchanged() {
        ZfsArc arc = wrapScenario(EnumSet.noneOf(QuirkFix.class));
        long before = arc.mruTarget();
        assertEquals(Outcome.GHOST_HIT_MFU, arc.read(0, SMALL, ReadKind.DEMAND, false));
        assertEquals(before, arc.mruTarget(), "2.1.1 (O1): 2^17 * 2^15 wraps to 0 in an int, so arc_p stays");
    }

    @Example
    void quirkO1WithFixMfuGhostHitDropsArcPToItsMinimum() {
        ZfsArc arc = wrapScenario(EnumSet.of(QuirkFix.ADAPT_64BIT_MULTIPLY_O1));
        long before = arc.mruTarget();
        assertEquals(Outcome.GHOST_HIT_MFU, arc.read(0, SMALL, ReadKind.DEMAND, false));
        assertEquals(Math.max(arc.targetSize() >>> 4, before - (1L << 32)), arc.mruTarget(),
                "O1 fixed: arc_p = MAX(arc_p_min, arc_p - MIN(2^32, arc_p))");
    }

    @Example
    void dampenerCapsTheMultiplierAtTen() {
        ZfsArc arc = wrapScenario(EnumSet.noneOf(QuirkFix.class),
                org.arcref.zfs.Tunables.defaults().withPDampenerDisable(false));
        long before = arc.mruTarget();
        arc.read(0, SMALL, ReadKind.DEMAND, false);
        assertEquals(Math.max(arc.targetSize() >>> 4, before - 10 * SMALL), arc.mruTarget(),
                "zfs_arc_p_dampener_disable=0: mult = MIN(2^15, 10), so arc_p drops by 10 blocks");
    }

    // ---- O2: arc_p > arc_c after a shrink to arc_c_min ----

    private static ArcSnapshot shrinkAfterWarmUp(Set<QuirkFix> fixes) {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 64 << 10, 2048).withFixes(fixes), MemoryModel.plentiful());
        for (long k = 0; k < 100; k++) {
            arc.write(k, 1024);
            arc.completeWrite(k, false);
        }
        arc.reduceTargetSize(1L << 30);
        return arc.snapshot();
    }

    @Example
    void quirkO2WithoutFixArcPExceedsArcCAfterShrinkToMinimum() {
        ArcSnapshot s = shrinkAfterWarmUp(EnumSet.noneOf(QuirkFix.class));
        assertEquals(s.cMin(), s.c());
        assertTrue(Long.compareUnsigned(s.p(), s.c()) > 0, "2.1.1 (O2): arc_p must stay above arc_c, was p=" + s.p());
    }

    @Example
    void quirkO2WithFixArcPIsClampedBelowArcC() {
        ArcSnapshot s = shrinkAfterWarmUp(EnumSet.of(QuirkFix.SHRINK_CLAMPS_ARC_P_O2));
        assertEquals(s.c() >>> 1, s.p(), "O2 fixed: arc_p = arc_c >> 1 after the shrink");
    }

    // ---- #13794: reap frees from arc_c rather than arc_c - arc_c_min ----

    /** @return {arc_c before, arc_size before, arc_c after} one reap under memory pressure */
    private static long[] reapUnderPressure(Set<QuirkFix> fixes) {
        AdjustableMemory memory = new AdjustableMemory(1L << 40);
        ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 64 << 10, 512).withSysFree(4096).withFixes(fixes), memory);
        for (long k = 0; k < 64; k++) {
            arc.read(k, 512, ReadKind.DEMAND, false);
        }
        long c = arc.targetSize();
        long size = arc.size();
        assertTrue(c > 8192 + 4096, "scenario: arc_c grew well above arc_c_min, was " + c);
        memory.set(4095);
        assertEquals(Outcome.REAPED, arc.reapStep());
        return new long[] {c, size, arc.targetSize()};
    }

    @Example
    void quirk13794WithoutFixReapFreesArcCShiftedByShrinkShift() {
        long[] r = reapUnderPressure(EnumSet.noneOf(QuirkFix.class));
        assertEquals(Math.min(r[0], r[1]) - ((r[0] >>> 7) + 1), r[2], "2.1.1: to_free = (arc_c >> 7) - available");
    }

    @Example
    void quirk13794WithFixReapFreesOnlyAboveArcCMin() {
        long[] r = reapUnderPressure(EnumSet.of(QuirkFix.REAP_ABOVE_C_MIN_13794));
        assertEquals(Math.min(r[0], r[1]) - (((r[0] - 8192) >>> 7) + 1), r[2],
                "#13794: to_free = ((arc_c - arc_c_min) >> 7) - available");
    }

    // ---- helpers ----

    static ArcState stateOf(ZfsArc arc, long key) {
        return arc.snapshot().headers().stream().filter(h -> h.key() == key).map(HeaderSnapshot::state)
                .findFirst().orElse(null);
    }

    static List<Long> keysIn(ZfsArc arc, ArcState state) {
        return arc.snapshot().headers().stream().filter(h -> h.state() == state).map(HeaderSnapshot::key).toList();
    }
}
