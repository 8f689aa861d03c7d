package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.zfs.AdjustableMemory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** R8, R9 and L1 on the waiter queue alone, single-threaded (the blocking paths are covered by EvictionWaiterTest). */
class EvictWaitersTest {

    private final AdjustableMemory memory = new AdjustableMemory(1L << 30);
    private final AtomicInteger wakeups = new AtomicInteger();
    private final EvictWaiters waiters = new EvictWaiters(memory, 1L << 20, wakeups::incrementAndGet);

    @Test
    @DisplayName("R8: counts are MAX(tail, arc_evict_count) + amount, non-decreasing; the first waiter wakes the evictor")
    void countsUseMaxOfTailAndEvictCount() {
        waiters.addEvicted(100);
        EvictWaiters.Waiter first = waiters.enqueue(10);
        EvictWaiters.Waiter second = waiters.enqueue(5);
        assertEquals(110, first.count);
        assertEquals(115, second.count);
        assertEquals(List.of(110L, 115L), waiters.counts());
        assertTrue(waiters.evictNeeded(), "L1: a queued waiter leaves arc_evict_needed set");
        assertEquals(1, wakeups.get(), "only the waiter that found the queue empty wakes the evictor");
        assertEquals(15, waiters.needFree(), "arc_need_free = tail count - arc_evict_count");
    }

    @Test
    @DisplayName("R8, R9a, d.4: three waiters of different amounts count from the tail and are released one by one")
    void threeWaitersOfDifferentAmounts() {
        threeWaitersOfDifferentAmounts(waiters);
    }

    @Test
    @DisplayName("R8: the three-waiter test fails on the count without MAX (#11285)")
    void threeWaitersCatchTheCountWithoutMax() {
        EvictWaiters broken = BrokenArcs.WAITER_COUNT_WITHOUT_MAX.create(memory, 1L << 20, wakeups::incrementAndGet);
        assertThrows(AssertionError.class, () -> threeWaitersOfDifferentAmounts(broken));
    }

    /**
     * arc.c 2.1.1 (fact sheet d.3, d.4, R8, R9a): with arc_evict_count at 100, waiters for 30, 10 and 20 bytes get
     * counts 130, 140 and 160, each the tail's count (not the head's, not arc_evict_count alone) plus its amount;
     * arc_need_free follows the tail's count. Eviction of 35, 5, 19 and 1 bytes then releases exactly the head each
     * time its count is reached, and never a waiter behind an unreleased one.
     */
    private static void threeWaitersOfDifferentAmounts(EvictWaiters queue) {
        queue.addEvicted(100);
        EvictWaiters.Waiter a = queue.enqueue(30);
        EvictWaiters.Waiter b = queue.enqueue(10);
        EvictWaiters.Waiter c = queue.enqueue(20);
        assertEquals(List.of(130L, 140L, 160L), queue.counts(),
                "aew_count = MAX(tail count, arc_evict_count) + amount");
        assertEquals(60, queue.needFree(), "arc_need_free = tail count 160 - arc_evict_count 100");
        queue.addEvicted(35);
        assertFalse(queue.isQueued(a), "A (count 130) is released at arc_evict_count 135");
        assertTrue(queue.isQueued(b) && queue.isQueued(c), "B (140) and C (160) stay queued at 135");
        assertEquals(25, queue.needFree(), "arc_need_free = 160 - 135");
        queue.addEvicted(5);
        assertFalse(queue.isQueued(b), "B (count 140) is released at arc_evict_count 140");
        assertTrue(queue.isQueued(c), "C (160) stays queued at 140");
        queue.addEvicted(19);
        assertTrue(queue.isQueued(c), "C (160) stays queued at 159");
        assertEquals(1, queue.needFree(), "arc_need_free = 160 - 159");
        queue.addEvicted(1);
        assertFalse(queue.isQueued(c), "C (count 160) is released at arc_evict_count 160");
        assertEquals(List.of(), queue.counts());
    }

    @Test
    @DisplayName("R9a: waiters are released head first once arc_evict_count reaches their count")
    void releasedByCountInOrder() {
        EvictWaiters.Waiter first = waiters.enqueue(10);
        EvictWaiters.Waiter second = waiters.enqueue(10);
        waiters.addEvicted(15);
        assertFalse(waiters.isQueued(first));
        assertTrue(waiters.isQueued(second));
        waiters.addEvicted(5);
        assertFalse(waiters.isQueued(second));
        assertEquals(20, waiters.evictCount());
    }

    @Test
    @DisplayName("R9a: no release by count while free memory is below arc_sys_free / 2")
    void noReleaseByCountWhenMemoryIsLow() {
        EvictWaiters.Waiter w = waiters.enqueue(10);
        memory.set(1L << 18);
        waiters.addEvicted(50);
        assertTrue(waiters.isQueued(w), "R8: a count already reached stays queued while memory is low");
        memory.set(1L << 30);
        waiters.addEvicted(0);
        assertFalse(waiters.isQueued(w));
    }

    @Test
    @DisplayName("R9a: free memory exactly arc_sys_free / 2 is not above it: no release by count")
    void noReleaseByCountAtExactlyHalfTheReserve() {
        EvictWaiters.Waiter w = waiters.enqueue(10);
        memory.set((1L << 20) / 2);
        waiters.addEvicted(10);
        assertTrue(waiters.isQueued(w), "free == arc_sys_free / 2 released a waiter by count");
        memory.set((1L << 20) / 2 + 1);
        waiters.addEvicted(0);
        assertFalse(waiters.isQueued(w));
    }

    @Test
    @DisplayName("d.4: arc_need_free is the larger of the shortfall below arc_sys_free / 2 and the last waiter's need")
    void needFreeIsTheShortfallOrTheLastWaitersNeed() {
        memory.set((1L << 20) / 2 - 100);
        waiters.addEvicted(7);
        assertEquals(100, waiters.needFree(), "no waiter: the shortfall of free memory below arc_sys_free / 2");
        waiters.enqueue(40);
        assertEquals(100, waiters.needFree(), "the shortfall, above the waiter's 40");
        waiters.enqueue(200);
        assertEquals(240, waiters.needFree(), "the last waiter's count 7 + 40 + 200 less arc_evict_count 7");
        memory.set(1L << 30);
        waiters.addEvicted(0);
        assertEquals(240, waiters.needFree(), "no shortfall; the waiters are still queued (count not reached)");
    }

    @Test
    @DisplayName("R9b, L1: a pass that ends eviction releases every waiter; shutdown releases all and queues none")
    void endPassAndShutdownReleaseEveryone() {
        EvictWaiters.Waiter a = waiters.enqueue(10);
        waiters.endPass(() -> true);
        assertTrue(waiters.isQueued(a) && waiters.evictNeeded());
        waiters.endPass(() -> false);
        assertFalse(waiters.isQueued(a) || waiters.evictNeeded());
        EvictWaiters.Waiter b = waiters.enqueue(10);
        waiters.shutdown();
        assertFalse(waiters.isQueued(b));
        assertFalse(waiters.isQueued(waiters.enqueue(10)), "after shutdown no waiter is queued");
        waiters.await(b);
    }

    @Test
    @DisplayName("L1: after shutdown the SOME path cannot set arc_evict_needed, so no wait for an idle evictor spins")
    void nothingSetsEvictNeededAfterShutdown() {
        waiters.shutdown();
        int wakeupsAtShutdown = wakeups.get();
        waiters.ensureEvicting();
        waiters.requestEviction();
        waiters.endPass(() -> true);
        assertFalse(waiters.evictNeeded(), "arc_evict_needed set after shutdown, with no evictor left to clear it");
        assertEquals(wakeupsAtShutdown, wakeups.get(), "no evictor to wake after shutdown");
    }
}
