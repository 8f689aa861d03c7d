package org.arcref.models.waiters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.arcref.arc.WaiterProtocolRig;
import org.arcref.arc.WaiterProtocolRig.Allocation;
import org.arcref.arc.WaiterProtocolRig.Variant;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
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
     * Shortest trail of {@code BROKEN_11285}: B finds the cache SOME over its target and wakes the evict zthr; its
     * first visit evicts 2 blocks with no waiter queued; A queues on the empty list, its count computed without
     * MAX (0 + 2, where MAX gives 2 + 2); the second visit evicts nothing, yet releases A, by bytes evicted before
     * it arrived.
     */
    private static void countChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            rig.someOverflow();
            rig.visit(2, true);
            Allocation a = rig.allocate("A", AMOUNT);
            rig.visit(0, true);
            long evictedSinceArrival = rig.evictCount() - a.evictCountAtArrival();
            if (!a.isQueued() && evictedSinceArrival < AMOUNT) {
                throw new PropertyViolation(Property.R8, "S2: A (count " + a.count() + ") was released by a visit"
                        + " although " + evictedSinceArrival + " of its " + AMOUNT + " blocks were evicted since it"
                        + " queued; arc_evict_count " + rig.evictCount() + ", arc_evict_needed " + rig.evictNeeded(),
                        "");
            }
            rig.endPass(false, true);
            rig.assertReturned(RETURN_TIMEOUT, a);
        }
    }

    /**
     * Shortest trail of {@code BROKEN_3616}: A queues (count 2) and wakes the evict zthr; its pass's first visit
     * evicts nothing, its second evicts 2 blocks while free memory is low, so the release by count is deferred; the
     * pass ends under the target, so {@code arc_evict_needed} becomes false, and it releases only reached counts,
     * which low memory still defers; A sleeps with nobody to evict for it.
     */
    private static void deferredReleaseChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            Allocation a = rig.allocate("A", AMOUNT);
            rig.visit(0, true);
            rig.visit(2, false);
            rig.endPass(false, false);
            assertFalse(rig.evictNeeded(), "a pass that ends under the target ends eviction");
            rig.assertReturned(RETURN_TIMEOUT, a);
        }
    }

    /**
     * Shortest trail of {@code BROKEN_NO_WAKE}: A queues (count 2) without setting {@code arc_evict_needed} or
     * waking the evict zthr, which finds no work and sleeps. The real queue wakes it, and its pass releases A.
     */
    private static void firstWaiterChoreography(Variant variant) throws InterruptedException {
        try (WaiterProtocolRig rig = WaiterProtocolRig.start(variant)) {
            Allocation a = rig.allocate("A", AMOUNT);
            rig.visit(2, true);
            rig.endPass(false, true);
            rig.assertReturned(RETURN_TIMEOUT, a);
        }
    }

    @Test
    @DisplayName("S2 (R8): the real count, MAX(last, arc_evict_count) + amount, keeps A queued until evicted for")
    void realCountPassesTheCountTrail() throws InterruptedException {
        countChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("S2 (R8): #11285's count without MAX releases A by bytes evicted before it came, as spin found")
    void countWithoutMaxFailsTheCountTrail() {
        PropertyViolation e = assertThrows(PropertyViolation.class,
                () -> countChoreography(Variant.WAITER_COUNT_WITHOUT_MAX));
        assertEquals(Property.R8, e.property(), e.getMessage());
        assertEquals("S2: A (count 2) was released by a visit although 0 of its 2 blocks were evicted since it"
                + " queued; arc_evict_count 2, arc_evict_needed true", e.detail());
    }

    @Test
    @DisplayName("L1: the real queue releases every waiter when a pass ends eviction, whatever free memory is")
    void realQueuePassesTheDeferredReleaseTrail() throws InterruptedException {
        deferredReleaseChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("L1: #3616's differing wake condition leaves a deferred waiter asleep for ever, as spin found")
    void wakeConditionsThatDifferFailTheDeferredReleaseTrail() {
        PropertyViolation e = assertThrows(PropertyViolation.class,
                () -> deferredReleaseChoreography(Variant.WAKE_CONDITIONS_DIFFER));
        assertEquals(Property.L1, e.property(), e.getMessage());
        assertEquals("an allocation still waits for eviction after 2000 ms; queued counts [2], arc_evict_needed false,"
                + " arc_evict_count 2", e.detail());
        assertTrue(e.state().contains("EvictWaiters.await"), "the dump shows where A waits: " + e.getMessage());
    }

    @Test
    @DisplayName("L1: the real queue wakes the evict zthr for the first waiter, whose pass releases it")
    void realQueuePassesTheFirstWaiterTrail() throws InterruptedException {
        firstWaiterChoreography(Variant.REAL);
    }

    @Test
    @DisplayName("L1: a waiter that sleeps without waking the evictor is never served, as spin found")
    void sleepingWithoutWakingFailsTheFirstWaiterTrail() {
        PropertyViolation e = assertThrows(PropertyViolation.class,
                () -> firstWaiterChoreography(Variant.SLEEPS_WITHOUT_WAKING));
        assertEquals(Property.L1, e.property(), e.getMessage());
        assertEquals("the evict zthr ran no pass within 2000 ms while waiters with counts [2] were queued"
                + " (arc_evict_needed false): nobody will release them", e.detail());
    }
}
