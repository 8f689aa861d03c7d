package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link ArcArithmetic#waiterCount} and {@link ArcArithmetic#needFree}, the two computations under
 * {@code arc_evict_lock} that the spec and the concurrent ARC's waiter queue share; expected values worked out by
 * hand from arc.c 2.1.1 ({@code arc_wait_for_eviction}, arc.c:5243; {@code arc_set_need_free}, arc.c:4015).
 */
class EvictWaiterArithmeticTest {

    @Test
    @DisplayName("R8: aew_count = MAX(last, arc_evict_count) + amount, compared as u64")
    void waiterCountTakesTheLargerOfTailAndEvictCount() {
        assertEquals(130, ArcArithmetic.waiterCount(0, 100, 30), "no tail: arc_evict_count 100 + 30");
        assertEquals(160, ArcArithmetic.waiterCount(140, 100, 20), "tail 140 ahead of the count: 140 + 20");
        assertEquals(210, ArcArithmetic.waiterCount(140, 200, 10), "count 200 ahead of the tail: 200 + 10");
        assertEquals(-1L + 5, ArcArithmetic.waiterCount(-1L, 7, 5), "u64: a tail of 2^64-1 is the larger");
    }

    @Test
    @DisplayName("arc_need_free is the memory shortfall, or the tail waiter's outstanding count if larger")
    void needFreeIsTheShortfallOrTheTailsNeed() {
        // remaining = free - sys_free / 2 = 1000 - 600 = 400: no shortfall
        assertEquals(0, ArcArithmetic.needFree(1000, 1200, false, 0, 0), "no waiter, no shortfall");
        assertEquals(50, ArcArithmetic.needFree(1000, 1200, true, 150, 100), "tail 150, count 100: 50 outstanding");
        // remaining = 100 - 600 = -500: a shortfall of 500
        assertEquals(500, ArcArithmetic.needFree(100, 1200, false, 0, 0), "no waiter: the shortfall");
        assertEquals(500, ArcArithmetic.needFree(100, 1200, true, 150, 100), "the shortfall is the larger");
        assertEquals(900, ArcArithmetic.needFree(100, 1200, true, 1000, 100), "the tail's 900 is the larger");
        assertEquals(500, ArcArithmetic.needFree(100, 1200, false, 1000, 100), "no waiter: the tail is ignored");
    }
}
