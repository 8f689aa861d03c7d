package org.arcref.models.waiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.arcref.arc.WaiterProtocolRig;
import org.arcref.arc.WaiterProtocolRig.Allocation;
import org.arcref.arc.WaiterProtocolRig.Variant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The counterexamples spin finds for model M3's broken variants ({@link WaitersModelTest}), replayed step by step
 * against the matching Java waiter queues ({@code BrokenArcs}' variants) with the real evict zthr
 * ({@link WaiterProtocolRig}): the broken variant fails the choreography with the property the model names, and
 * the real {@code EvictWaiters} passes the same choreography. Amounts are in blocks, as in the model
 * ({@code AMOUNT} = 2). Every step is bounded by {@link WaiterProtocolRig#STEP_TIMEOUT}; each test by
 * {@link Timeout}, as a last resort.
 */
@Timeout(30)
class WaiterTrailReplayTest {

    private static final long AMOUNT = 2;
    private static final Duration RETURN_TIMEOUT = WaiterProtocolRig.STEP_TIMEOUT;

    /**
     * Trail of {@code BROKEN_11285}: A queues on the empty list (count 2); the evictor's first visit evicts 2 and
     * releases A; B queues on the empty list, its count computed without MAX (2, where MAX gives 4); the second
     * visit evicts nothing, yet releases B, by a count reached before it arrived.
     */
    private static void countChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            Allocation a = rig.allocate("A", AMOUNT);
            rig.visit(2, true);
            rig.assertReturned(RETURN_TIMEOUT, a);
            Allocation b = rig.allocate("B", AMOUNT);
            rig.visit(0, true);
            long evictedSinceArrival = rig.evictCount() - b.evictCountAtArrival();
            if (!b.isQueued() && evictedSinceArrival < AMOUNT) {
                throw new AssertionError("S2 (R8): B (count " + b.count() + ") was released by a visit that "
                        + "evicted nothing, " + evictedSinceArrival + " of its " + AMOUNT + " blocks evicted since it"
                        + " queued, arc_evict_count " + rig.evictCount() + ", arc_evict_needed " + rig.evictNeeded());
            }
            rig.endPass(false);
            rig.assertReturned(RETURN_TIMEOUT, b);
        }
    }

    /**
     * Trail of {@code BROKEN_3616}: A and B queue (counts 2 and 4); the evictor's pass visits twice and evicts
     * nothing, so it ends with {@code arc_evict_needed} false; it releases only reached counts (none), and both
     * waiters sleep with nobody to evict for them.
     */
    private static void passEvictingNothingChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            Allocation a = rig.allocate("A", AMOUNT);
            Allocation b = rig.allocate("B", AMOUNT);
            rig.visit(0, true);
            rig.visit(0, true);
            rig.endPass(true);
            assertFalse(rig.evictNeeded(), "a pass that evicted nothing ends eviction");
            rig.assertReturned(RETURN_TIMEOUT, a, b);
        }
    }

    /**
     * Trail of {@code BROKEN_NO_WAKE}: A and B queue without setting {@code arc_evict_needed} or waking the zthr,
     * which finds no work and sleeps. The real queue wakes it, and its pass (evicting both amounts) releases both.
     */
    private static void twoWaitersChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            Allocation a = rig.allocate("A", AMOUNT);
            Allocation b = rig.allocate("B", AMOUNT);
            rig.visit(4, true);
            rig.endPass(false);
            rig.assertReturned(RETURN_TIMEOUT, a, b);
        }
    }

    @Test
    @DisplayName("S2 (R8): the real count, MAX(last, arc_evict_count) + amount, keeps B queued until evicted for")
    void realCountPassesTheCountTrail() throws InterruptedException {
        countChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("S2 (R8): #11285's count without MAX releases B before its amount is evicted, as spin found")
    void countWithoutMaxFailsTheCountTrail() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> countChoreography(Variant.WAITER_COUNT_WITHOUT_MAX));
        assertTrue(e.getMessage().startsWith("S2 (R8): B (count 2) was released by a visit that evicted nothing"),
                e.getMessage());
    }

    @Test
    @DisplayName("L1: the real queue releases every waiter when a pass that evicted nothing ends eviction")
    void realQueuePassesThePassEvictingNothingTrail() throws InterruptedException {
        passEvictingNothingChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("L1: #3616's differing wake condition leaves both waiters asleep, as spin found")
    void wakeConditionsThatDifferFailThePassEvictingNothingTrail() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> passEvictingNothingChoreography(Variant.WAKE_CONDITIONS_DIFFER));
        assertTrue(e.getMessage().startsWith("L1: an allocation still waits for eviction"), e.getMessage());
        assertTrue(e.getMessage().contains("queued counts [2, 4], arc_evict_needed false"), e.getMessage());
    }

    @Test
    @DisplayName("L1: the real queue wakes the evict zthr for the first waiter, whose pass releases both")
    void realQueuePassesTheTwoWaitersTrail() throws InterruptedException {
        twoWaitersChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("L1: waiters that sleep without waking the evictor are never served, as spin found")
    void sleepingWithoutWakingFailsTheTwoWaitersTrail() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> twoWaitersChoreography(Variant.SLEEPS_WITHOUT_WAKING));
        assertEquals("L1: the evict zthr ran no pass within 2000 ms while waiters with counts [2, 4] were queued"
                + " (arc_evict_needed false): nobody will release them", e.getMessage());
    }
}
