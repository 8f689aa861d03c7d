package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The zfs-2.2.0 engine against figures zfs-2.2.0's own code produced: the worked eviction pass and the two
 * {@code arc_evict_adj} scenarios, each reproduced by calling 2.2.0's {@code arc_evict} and {@code arc_evict_adj}
 * in a userland program linked with its libzpool (docs/oracle.md, "zfs-2.2.0"), before and after the fix.
 */
class Zfs22ArcTest {

    private static final long MIB = 1L << 20;

    @Test
    void evictAdjLeavesTheRangeAboveInZfs220AndNotWithTheFix() {
        long meta = 3_393_024_163L; // 0.79 of 2^32
        assertEquals(4_399_657_123L, Arc22Arithmetic.evictAdj(meta, 64 * MIB, 15 * MIB, 0, 500, false));
        assertEquals(3_536_828_835L, Arc22Arithmetic.evictAdj(meta, 64 * MIB, 15 * MIB, 0, 500, true));
    }

    @Test
    void evictAdjWrapsBelowZeroInZfs220AndNotWithTheFix() {
        long pd = 901_943_132L; // 0.21 of 2^32
        assertEquals(Long.parseUnsignedLong("18446744073604861788"),
                Arc22Arithmetic.evictAdj(pd, 64 * MIB, 0, 15 * MIB, 100, false));
        assertEquals(758_138_460L, Arc22Arithmetic.evictAdj(pd, 64 * MIB, 0, 15 * MIB, 100, true));
    }

    @Test
    void evictAdjLeavesTheFractionAloneWithoutHitsOrTotal() {
        assertEquals(Arc22Arithmetic.ONE / 4, Arc22Arithmetic.evictAdj(Arc22Arithmetic.ONE / 4, 7, 5, 0, 500, false));
        assertEquals(Arc22Arithmetic.ONE / 4, Arc22Arithmetic.evictAdj(Arc22Arithmetic.ONE / 4, 31, 5, 0, 500, true));
        assertEquals(Arc22Arithmetic.ONE / 4, Arc22Arithmetic.evictAdj(Arc22Arithmetic.ONE / 4, 1 << 20, 0, 0, 500,
                false));
    }

    @Test
    void targetShiftsANegativeProductTowardMinusInfinity() {
        assertEquals(-1, Arc22Arithmetic.target(-1, 1));
        assertEquals(-2, Arc22Arithmetic.target(-65537, 1));
        assertEquals(0, Arc22Arithmetic.target(65535, 1));
    }

    /**
     * The worked pass: {@code arc_c} 64 MiB, MRU metadata 48, MFU metadata 16, MRU data 32, MFU data 32 MiB of
     * 1 MiB buffers, default fractions, no ghost hits: zfs-2.2.0 leaves 8 / 0 / 28 / 28 MiB (MRU metadata's share
     * evicted twice), the #16546 fix 8 / 8 / 24 / 24.
     */
    @Test
    void theWorkedPassEvictsMetadataTwiceInZfs220() {
        assertPass(EnumSet.noneOf(QuirkFix.class), 8, 0, 28, 28);
        assertPass(EnumSet.of(QuirkFix.MFU_META_EVICTION_16546), 8, 8, 24, 24);
    }

    private static void assertPass(Set<QuirkFix> fixes, long mruMeta, long mfuMeta, long mruData, long mfuData) {
        ArcConfig config = new ArcConfig(64 * MIB, 128 * MIB, MIB, 2 * MIB, 0, 1000, 1, 0, false, fixes,
                Tunables.defaults());
        Zfs22Arc arc = new Zfs22Arc(config, 128 * 1024, 500, new AdjustableMemory(Long.MAX_VALUE / 4));
        int key = 0;
        for (int i = 0; i < 48; i++) {
            arc.read(key++, MIB, ReadKind.DEMAND, false, BufType.METADATA);
        }
        int mfuMetaFirst = key;
        for (int i = 0; i < 16; i++) {
            arc.read(key++, MIB, ReadKind.DEMAND, false, BufType.METADATA);
        }
        for (int i = 0; i < 32; i++) {
            arc.read(key++, MIB, ReadKind.DEMAND, false, BufType.DATA);
        }
        int mfuDataFirst = key;
        for (int i = 0; i < 32; i++) {
            arc.read(key++, MIB, ReadKind.DEMAND, false, BufType.DATA);
        }
        arc.tick(100);
        for (int i = 0; i < 16; i++) {
            arc.read(mfuMetaFirst + i, MIB, ReadKind.DEMAND, false, BufType.METADATA);
        }
        for (int i = 0; i < 32; i++) {
            arc.read(mfuDataFirst + i, MIB, ReadKind.DEMAND, false, BufType.DATA);
        }
        Arc22Snapshot before = arc.snapshot();
        assertEquals(128 * MIB, before.size());
        assertEquals(128 * MIB, before.c());
        arc.reduceTargetSize(64 * MIB);
        assertEquals(64 * MIB, arc.snapshot().c());
        assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep());
        Arc22Snapshot after = arc.snapshot();
        assertEquals(mruMeta * MIB, after.state(ArcState.MRU, BufType.METADATA).size(), "MRU metadata");
        assertEquals(mfuMeta * MIB, after.state(ArcState.MFU, BufType.METADATA).size(), "MFU metadata");
        assertEquals(mruData * MIB, after.state(ArcState.MRU, BufType.DATA).size(), "MRU data");
        assertEquals(mfuData * MIB, after.state(ArcState.MFU, BufType.DATA).size(), "MFU data");
        assertEquals(64 * MIB, after.size());
    }

    @Test
    void aBlockKeepsItsType() {
        Zfs22Arc arc = new Zfs22Arc(ArcConfig.small(8192, 65536, 2048), 512, 500, new AdjustableMemory(1L << 40));
        arc.read(1, 1024, ReadKind.DEMAND, false, BufType.METADATA);
        Arc22Snapshot before = arc.snapshot();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> arc.read(1, 1024, ReadKind.DEMAND, false, BufType.DATA));
        assertTrue(e.getMessage().contains("type must equal the type (metadata) of key 1"), e.getMessage());
        assertEquals(before, arc.snapshot());
    }

    @Test
    void zfs211sEngineRejectsMetadataAndZfs22sFixes() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 65536, 2048), new AdjustableMemory(1L << 40));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> arc.read(1, 1024, ReadKind.DEMAND, false, BufType.METADATA));
        assertTrue(e.getMessage().startsWith("type must be data for zfs-2.1.1's engine"), e.getMessage());
        ArcConfig with22Fix = ArcConfig.small(8192, 65536, 2048).withFixes(EnumSet.of(QuirkFix.MFU_META_EVICTION_16546));
        e = assertThrows(IllegalArgumentException.class, () -> new ZfsArc(with22Fix, new AdjustableMemory(1L << 40)));
        assertTrue(e.getMessage().contains("MFU_META_EVICTION_16546"), e.getMessage());
    }
}
