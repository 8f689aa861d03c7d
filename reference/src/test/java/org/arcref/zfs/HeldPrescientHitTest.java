package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * R11, the branch of {@code arc_access} for a prefetched MRU header that is referenced
 * ({@code zfs_refcount_count(&b_refcnt) > 0}): it counts an MRU hit, clears the flags, restamps the access time
 * and returns without promotion, even after {@code ARC_MINTIME}. A header reaches it only while held: the first
 * reference clears {@code ARC_FLAG_PREFETCH} ({@code add_reference}), so the flag that matters is the prescient one,
 * set by a prescient prefetch hit on the held header.
 */
class HeldPrescientHitTest {

    @Test
    @DisplayName("R11: a prescient prefetch hit on a held, prescient-flagged MRU header counts an MRU hit and stays")
    void prescientHitOnHeldHeader() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 8192, 2048).withSublists(1), MemoryModel.plentiful());
        arc.read(1, 512, ReadKind.DEMAND, true);
        arc.read(1, 512, ReadKind.PRESCIENT_PREFETCH, false);
        long mruHits = arc.stat(ArcStat.MRU_HITS);
        arc.tick(100);
        assertEquals(Outcome.HIT_MRU, arc.read(1, 512, ReadKind.PRESCIENT_PREFETCH, false));
        HeaderSnapshot h = arc.snapshot().headers().stream().filter(x -> x.key() == 1).findFirst().orElseThrow();
        assertEquals(ArcState.MRU, h.state(), "no promotion on this branch although ARC_MINTIME passed");
        assertEquals(100, h.lastAccess());
        assertEquals(1, h.refcount());
        assertEquals(mruHits + 1, arc.stat(ArcStat.MRU_HITS), "the held header's hit is counted");
    }
}
