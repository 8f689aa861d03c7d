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
import org.arcref.differential.Lockstep;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
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
        ArcSnapshot s = shrinkAfterWarmUp(EnumSet.of(QuirkFix.SHRINK_CLAMPS_ARC_P_OURS));
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

    static ArcState stateOf(ArcSnapshot s, long key) {
        return s.headers().stream().filter(h -> h.key() == key).map(HeaderSnapshot::state)
                .findFirst().orElse(null);
    }

    static List<Long> keysIn(ArcSnapshot s, ArcState state) {
        return s.headers().stream().filter(h -> h.state() == state).map(HeaderSnapshot::key).toList();
    }
}
