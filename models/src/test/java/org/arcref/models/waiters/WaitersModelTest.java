package org.arcref.models.waiters;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.models.SpinCheck;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Model M3, the eviction-waiter protocol ({@code waiters.pml}), checked exhaustively by spin: list monotonicity
 * (S1) and justified releases (S2) in every interleaving, L1 under weak fairness, and each broken variant refuted.
 * Two allocating threads, one allocation each, two sublist visits per pass by default; three visits, two
 * allocations per thread and three threads run with {@code -Dmodels.large=true}. The safety refutations print the
 * shortest counterexample ({@code pan -i}), which {@link WaiterTrailReplayTest} replays step by step against the
 * Java variants.
 */
class WaitersModelTest {

    private static final String MODEL = "waiters.pml";

    @Test
    @DisplayName("S1, S2: waiter counts never decrease head to tail; a waiter is released only when justified")
    void listMonotonicityAndJustifiedReleaseHold() {
        SpinCheck.safety(MODEL).define("THREADS", 2).assertHolds();
    }

    @Test
    @DisplayName("L1: every queued waiter is eventually released, under weak fairness")
    void everyWaiterIsEventuallyReleased() {
        SpinCheck.ltl(MODEL, "L1").define("THREADS", 2).assertHolds();
    }

    @Test
    @DisplayName("S2: #11285, a count without MAX, releases a waiter before its amount was evicted")
    void countWithoutMaxReleasesTooEarly() {
        String trail = SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_11285").shortest()
                .assertRefuted();
        assertTrue(trail.contains("assertion violated") && trail.contains("arrival"),
                "the refutation must be S2's assertion at a release by count:\n" + trail);
    }

    @Test
    @DisplayName("L1: #3616, wake conditions that differ, leaves waiters queued with eviction no longer needed")
    void wakeConditionsThatDifferLoseAWakeup() {
        assertLostWaiter(SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_3616").shortest()
                .assertRefuted());
        assertLostWaiter(SpinCheck.ltl(MODEL, "L1").define("THREADS", 2).define("BROKEN_3616").assertRefuted());
    }

    @Test
    @DisplayName("L1: a waiter that sleeps without waking the evictor is never released")
    void aWaiterThatSleepsWithoutWakingTheEvictorIsLost() {
        assertLostWaiter(SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_NO_WAKE").shortest()
                .assertRefuted());
        assertLostWaiter(SpinCheck.ltl(MODEL, "L1").define("THREADS", 2).define("BROKEN_NO_WAKE").assertRefuted());
    }

    @Test
    @EnabledIfSystemProperty(named = "models.large", matches = "true")
    @DisplayName("S1, S2, L1 with three sublist visits per pass")
    void threeVisitsPerPassHold() {
        SpinCheck.safety(MODEL).define("THREADS", 2).define("NVISITS", 3).assertHolds();
        SpinCheck.ltl(MODEL, "L1").define("THREADS", 2).define("NVISITS", 3).assertHolds();
    }

    @Test
    @EnabledIfSystemProperty(named = "models.large", matches = "true")
    @DisplayName("S1, S2, L1 with two allocations per thread")
    void twoAllocationsPerThreadHold() {
        String reason = "two allocations per thread store about ten million states";
        SpinCheck.safety(MODEL).define("THREADS", 2).define("ALLOCS", 2).collapse(reason).assertHolds();
        SpinCheck.ltl(MODEL, "L1").define("THREADS", 2).define("ALLOCS", 2).collapse(reason).assertHolds();
    }

    @Test
    @EnabledIfSystemProperty(named = "models.large", matches = "true")
    @DisplayName("S1, S2, L1 with three allocating threads")
    void threeThreadsHold() {
        String reason = "three threads store about ten million states";
        SpinCheck.safety(MODEL).define("THREADS", 3).collapse(reason).assertHolds();
        // seven processes: pan's weak fairness needs NFAIR=3 beyond six
        SpinCheck.ltl(MODEL, "L1").define("THREADS", 3).collapse(reason).nfair(3).assertHolds();
    }

    /** The trail ends with a waiter still queued while nothing will set arc_evict_needed again. */
    private static void assertLostWaiter(String trail) {
        assertTrue(trail.contains("queued[0] = 1") || trail.contains("queued[1] = 1"),
                "the counterexample must end with a queued waiter:\n" + trail);
        assertTrue(trail.contains("needed = 0"), "with arc_evict_needed false:\n" + trail);
    }
}
