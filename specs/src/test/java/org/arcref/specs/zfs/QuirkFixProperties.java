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
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;

/**
 * Each known 2.1.1 quirk (fact sheet (g)) happens without its {@link QuirkFix} and never with it; O1, the 32-bit
 * multiply of {@code arc_adapt}, in {@link AdaptMultiplyWrapTest}.
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
