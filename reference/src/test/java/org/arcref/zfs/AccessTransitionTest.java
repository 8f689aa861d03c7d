package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * R11 (promotion rules of {@code arc_access}), R5 (list order: released headers at the head,
 * eviction from the tail) and the prefetch lifetime of {@code arc_evict_hdr}, one rule per test.
 * The clock runs at HZ=1000, so {@code ARC_MINTIME} is 62 ticks and the prefetch lifetime 1000.
 */
class AccessTransitionTest {

    private final ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 8192, 2048).withSublists(1), MemoryModel.plentiful());

    private HeaderSnapshot header(long key) {
        return arc.snapshot().headers().stream().filter(h -> h.key() == key).findFirst().orElse(null);
    }

    private List<Long> listOrder(ArcState state) {
        return arc.snapshot().headers().stream().filter(h -> h.state() == state && h.linked())
                .map(HeaderSnapshot::key).toList();
    }

    @Test
    @DisplayName("R11: a miss goes through anon to MRU, stamped with the current tick")
    void missGoesToMru() {
        arc.tick(5);
        assertEquals(Outcome.MISS, arc.read(1, 512, ReadKind.DEMAND, false));
        HeaderSnapshot h = header(1);
        assertEquals(ArcState.MRU, h.state());
        assertEquals(5, h.lastAccess());
        assertTrue(h.linked());
    }

    @Test
    @DisplayName("R11: an MRU hit within ARC_MINTIME stays in MRU and keeps its access time")
    void mruHitWithinMinTimeStays() {
        arc.read(1, 512, ReadKind.DEMAND, false);
        arc.tick(62);
        assertEquals(Outcome.HIT_MRU, arc.read(1, 512, ReadKind.DEMAND, false));
        assertEquals(ArcState.MRU, header(1).state());
        assertEquals(0, header(1).lastAccess());
        assertEquals(1, arc.stat(ArcStat.MRU_HITS));
    }

    @Test
    @DisplayName("R11: an MRU hit later than ARC_MINTIME promotes to MFU")
    void mruHitAfterMinTimePromotes() {
        arc.read(1, 512, ReadKind.DEMAND, false);
        arc.tick(63);
        assertEquals(Outcome.HIT_MRU, arc.read(1, 512, ReadKind.DEMAND, false));
        assertEquals(ArcState.MFU, header(1).state());
        assertEquals(63, header(1).lastAccess());
    }

    @Test
    @DisplayName("R11: a prefetch hit on a prefetched MRU header only restamps it and does not move it in the list")
    void prefetchHitDoesNotMove() {
        arc.read(1, 512, ReadKind.PREFETCH, false);
        arc.read(2, 512, ReadKind.PREFETCH, false);
        arc.tick(100);
        assertEquals(Outcome.HIT_MRU, arc.read(1, 512, ReadKind.PREFETCH, false));
        assertEquals(ArcState.MRU, header(1).state());
        assertEquals(100, header(1).lastAccess());
        assertEquals(List.of(2L, 1L), listOrder(ArcState.MRU), "head (newest) first: 1 was not moved to the head");
        assertEquals(0, arc.stat(ArcStat.MRU_HITS));
        assertEquals(1, arc.stat(ArcStat.PREFETCH_DATA_HITS));
    }

    @Test
    @DisplayName("R11: a demand hit on a prefetched header clears the flag first (add_reference), then promotes")
    void demandHitOnPrefetchedHeader() {
        arc.read(1, 512, ReadKind.PREFETCH, false);
        arc.tick(100);
        arc.read(1, 512, ReadKind.DEMAND, false);
        HeaderSnapshot h = header(1);
        assertFalse(h.prefetch());
        assertEquals(ArcState.MFU, h.state());
    }

    @Test
    @DisplayName("R5: a released header goes to the head of its list")
    void releaseInsertsAtHead() {
        arc.read(1, 512, ReadKind.DEMAND, true);
        arc.read(2, 512, ReadKind.DEMAND, false);
        assertFalse(header(1).linked());
        arc.release(1);
        assertEquals(List.of(1L, 2L), listOrder(ArcState.MRU));
    }

    @Test
    @DisplayName("c.2: a second hold is a second buffer, a private copy that counts in arc_size until released")
    void secondHoldAllocatesACopy() {
        arc.read(1, 1024, ReadKind.DEMAND, true);
        assertEquals(1024, arc.size(), "the first buffer shares the header's data");
        arc.read(1, 1024, ReadKind.DEMAND, true);
        assertEquals(2048, arc.size(), "the second buffer cannot share: arc_get_data_buf allocates a copy");
        assertEquals(2048, arc.snapshot().state(ArcState.MRU).size());
        arc.release(1);
        assertEquals(1024, arc.size(), "releasing a buffer returns the copy");
        arc.release(1);
        assertEquals(1024, arc.size());
        assertEquals(1024, arc.snapshot().state(ArcState.MRU).evictableSize());
    }

    @Test
    @DisplayName("R11: a write is anonymous until it completes, then it is in MRU")
    void writeThenComplete() {
        assertEquals(Outcome.WRITTEN, arc.write(7, 1024));
        assertEquals(ArcState.ANON, header(7).state());
        assertEquals(1024, arc.snapshot().state(ArcState.ANON).size());
        assertEquals(Outcome.WRITE_COMPLETED, arc.completeWrite(7, false));
        assertEquals(ArcState.MRU, header(7).state());
        assertEquals(0, arc.snapshot().state(ArcState.ANON).size());
    }

    /** Reads {@code count} new 512-byte blocks once each. */
    private void fill(long firstKey, int count, ReadKind kind) {
        for (long k = firstKey; k < firstKey + count; k++) {
            arc.read(k, 512, kind, false);
        }
    }

    /**
     * Puts 4 KiB in MFU (keys 50-57 read twice, 100 ticks apart): MRU then holds at most
     * {@code arc_c} minus that, which leaves room for MRU ghosts ({@code mru + mru_ghost <= arc_c}).
     */
    private void mfuBase() {
        fill(50, 8, ReadKind.DEMAND);
        arc.tick(100);
        fill(50, 8, ReadKind.DEMAND);
        assertEquals(4096, arc.snapshot().state(ArcState.MFU).size());
    }

    @Test
    @DisplayName("R5/R11: eviction takes the oldest MRU header to MRU ghost; a ghost hit goes to MFU")
    void evictionAndMruGhostHit() {
        mfuBase();
        fill(0, 1, ReadKind.DEMAND);
        long next = 1;
        while (header(0).state() == ArcState.MRU) {
            fill(next++, 1, ReadKind.DEMAND);
        }
        assertEquals(ArcState.MRU_GHOST, header(0).state(), "the oldest header is evicted to MRU ghost");
        long lastRead = next - 1;
        long newestGhost = arc.snapshot().headers().stream()
                .filter(h -> h.state() == ArcState.MRU_GHOST && h.key() <= lastRead).mapToLong(HeaderSnapshot::key)
                .max().orElseThrow();
        long oldestCached = arc.snapshot().headers().stream()
                .filter(h -> h.state() == ArcState.MRU && h.key() <= lastRead).mapToLong(HeaderSnapshot::key)
                .min().orElseThrow();
        assertTrue(newestGhost < oldestCached, "eviction goes oldest first: ghost " + newestGhost
                + " must be older than cached " + oldestCached);
        assertTrue(arc.stat(ArcStat.EVICTIONS) > 0);
        long pBefore = arc.mruTarget();
        assertEquals(Outcome.GHOST_HIT_MRU, arc.read(0, 512, ReadKind.DEMAND, false));
        assertEquals(ArcState.MFU, header(0).state());
        assertTrue(arc.mruTarget() > pBefore, "arc_adapt grows arc_p on an MRU-ghost hit");
    }

    @Test
    @DisplayName("R11: a ghost hit on a header that was prefetched goes back to MRU")
    void prefetchedGhostGoesToMru() {
        mfuBase();
        fill(100, 8, ReadKind.PREFETCH);
        arc.tick(2000);
        fill(200, 12, ReadKind.DEMAND);
        HeaderSnapshot ghost = arc.snapshot().headers().stream()
                .filter(h -> h.state() == ArcState.MRU_GHOST && h.prefetch()).findFirst().orElseThrow();
        arc.read(ghost.key(), 512, ReadKind.DEMAND, false);
        assertEquals(ArcState.MRU, header(ghost.key()).state());
    }

    @Test
    @DisplayName("d.15: a prefetched header younger than arc_min_prefetch_ms is skipped by eviction")
    void youngPrefetchIsSkipped() {
        fill(0, 40, ReadKind.PREFETCH);
        ArcSnapshot s = arc.snapshot();
        assertTrue(s.stats().get(ArcStat.EVICT_SKIP) > 0, "evict_skip counts the protected headers");
        assertEquals(0, s.stats().get(ArcStat.EVICTIONS), "nothing younger than 1000 ticks is evicted");
        arc.tick(1000);
        arc.read(500, 512, ReadKind.DEMAND, false);
        assertTrue(arc.stat(ArcStat.EVICTIONS) > 0, "once old enough, prefetched headers are evicted");
    }

    @Test
    @DisplayName("d.3/R8: an allocation that overflows severely queues a waiter and is released")
    void severeOverflowQueuesAWaiter() {
        ZfsArc manual = new ZfsArc(ArcConfig.small(8192, 8192, 2048).withEvictorRunsAfterEachOperation(false),
                MemoryModel.plentiful());
        for (long k = 0; k < 40; k++) {
            manual.read(k, 512, ReadKind.DEMAND, false);
        }
        ArcSnapshot s = manual.snapshot();
        assertTrue(s.stats().get(ArcStat.EVICT_WAITS) > 0, "allocations blocked as waiters");
        assertTrue(s.waiterCounts().isEmpty(), "every waiter was released");
        assertTrue(s.evictCount() > 0);
    }

    @Test
    @DisplayName("R9(a): a waiter is released by count, mid-pass, while eviction is still needed")
    void waiterReleasedByCountWhileEvictionStillNeeded() {
        ZfsArc manual = new ZfsArc(ArcConfig.small(8192, 8192, 2048).withSublists(1)
                .withEvictorRunsAfterEachOperation(false), MemoryModel.plentiful());
        for (long k = 0; k < 18; k++) {
            manual.read(k, 512, ReadKind.PREFETCH, false);
        }
        manual.read(100, 512, ReadKind.DEMAND, false);
        manual.read(101, 512, ReadKind.DEMAND, false);
        assertEquals(10240, manual.size(), "arc_c + 2 KiB: the next allocation overflows severely");
        manual.read(200, 512, ReadKind.DEMAND, false);
        ArcSnapshot s = manual.snapshot();
        assertEquals(1, s.stats().get(ArcStat.EVICT_WAITS));
        assertEquals(1024, s.evictCount(), "only the two demand blocks were evictable: the waiter's 1024 bytes");
        assertTrue(s.waiterCounts().isEmpty());
        assertTrue(s.evictNeeded(), "released by count (arc_evict_state_impl), not by the evictor giving up: "
                + "arc_evict_needed is still TRUE because arc_size > arc_c");
        assertEquals(1, s.stats().get(ArcStat.EVICTOR_RUNS), "one evictor pass ran inline for the waiter");
        assertEquals(18, s.stats().get(ArcStat.EVICT_SKIP), "it skipped the 18 young prefetches");
    }
}
