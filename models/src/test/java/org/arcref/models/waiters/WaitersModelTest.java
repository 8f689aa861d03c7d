package org.arcref.models.waiters;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.models.SpinCheck;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Model M3, the eviction-waiter protocol ({@code waiters.pml}), checked exhaustively by spin: list monotonicity
 * (S1) and justified releases (S2) in every interleaving, L1 under weak fairness, and each broken variant refuted.
 * The faithful model is checked with three allocating threads (so three waiters can be queued at once: the head,
 * a middle one and the tail), one allocation each, two sublist visits per pass; three visits and two allocations per
 * thread run with {@code -Dmodels.large=true}. A thread whose allocation finds no overflow queues nothing, so the
 * runs of two waiters are among these. The broken variants are refuted with two threads where two suffice. The safety refutations print the
 * shortest counterexample ({@code pan -i}), which {@link WaiterTrailReplayTest} replays step by step against the
 * Java variants.
 */
class WaitersModelTest {

    private static final String MODEL = "waiters.pml";
    private static final String THREE_THREADS = "three threads store about ten million states";

    @Test
    @DisplayName("S1, S2: waiter counts never decrease head to tail; a waiter is released only when justified")
    void listMonotonicityAndJustifiedReleaseHold() {
        SpinCheck.safety(MODEL).define("THREADS", 3).collapse(THREE_THREADS).assertHolds();
    }

    @Test
    @DisplayName("L1: every queued waiter is eventually released, under weak fairness")
    void everyWaiterIsEventuallyReleased() {
        // seven processes: pan's weak fairness needs NFAIR=3 beyond six
        SpinCheck.ltl(MODEL, "L1").define("THREADS", 3).collapse(THREE_THREADS).nfair(3).assertHolds();
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
    @DisplayName("#11285 as it was: before #11397 the tail's count had to exceed arc_evict_count, which deferred"
            + " releases break")
    void countBefore11397FailsItsVerify() {
        String trail = SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_PRE_11397").assertRefuted();
        assertTrue(trail.contains("assertion violated") && trail.contains("last>ec"),
                "the refutation must be the VERIFY(last->aew_count > arc_evict_count) of #11285:\n" + trail);
    }

    @Test
    @DisplayName("S2 (witness): the count before #11397 without its VERIFY releases a waiter early")
    void countBefore11397WithoutItsVerifyReleasesTooEarly() {
        assertWitnessViolated(SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_PRE_11397")
                .define("NO_VERIFY").assertRefuted());
    }

    @Test
    @DisplayName("S2 (witness): #12279, ghost blocks counted in arc_evict_count, releases a waiter early")
    void ghostBlocksCountedReleaseTooEarly() {
        assertWitnessViolated(SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_12279").assertRefuted());
    }

    @Test
    @DisplayName("S2 (free memory): a release by count that skips the free-memory test")
    void releaseWithoutTheFreeMemoryTest() {
        assertWitnessViolated(SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_NO_MEMCHECK")
                .assertRefuted());
    }

    @Test
    @DisplayName("S1: a waiter's count taken from the head of the list, with waiters of different amounts")
    void countFromTheHeadBreaksTheOrder() {
        // three waiters are needed: with two, the head is the tail when the second one queues
        String trail = SpinCheck.safety(MODEL).define("THREADS", 3).define("BROKEN_HEAD_COUNT").assertRefuted();
        assertTrue(trail.contains("assertion violated") && trail.contains("q[(j-1)]<=q[j]"),
                "the refutation must be S1's order assertion:\n" + trail);
    }

    @Test
    @DisplayName("Promptness: a release point that releases one waiter and leaves a reached one queued")
    void oneReleasePerVisitIsNotPrompt() {
        // three waiters: with two and one block per allocation the count cannot pass two waiters' counts at once
        String trail = SpinCheck.safety(MODEL).define("THREADS", 3).define("BROKEN_ONE_RELEASE").assertRefuted();
        assertTrue(trail.contains("assertion violated") && trail.contains("q[0]<=ec"),
                "the refutation must be the promptness assertion:\n" + trail);
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
    @DisplayName("L1: a waiter that wakes the evict zthr before it sets arc_evict_needed is lost (explicit lock)")
    void wakeBeforeSettingNeededLosesTheWakeup() {
        String trail = SpinCheck.safety(MODEL).define("THREADS", 2).define("BROKEN_WAKE_FIRST").shortest()
                .assertRefuted();
        // the zthr checked between the wakeup and the store, and went back to sleep: needed is true, nobody wakes it
        assertTrue((trail.contains("queued[0] = 1") || trail.contains("queued[1] = 1")) && trail.contains("needed = 1")
                && trail.contains("asleep = 1"), "the counterexample must end with a queued waiter, arc_evict_needed"
                + " true and the zthr asleep:\n" + trail);
    }

    /** S2 (a) at a release by count: free memory, and the witness's real blocks since the waiter arrived. */
    private static void assertWitnessViolated(String trail) {
        assertTrue(trail.contains("assertion violated") && trail.contains("realc-arrival"),
                "the refutation must be S2's assertion at a release by count:\n" + trail);
    }

    /** The trail ends with a waiter still queued while nothing will set arc_evict_needed again. */
    private static void assertLostWaiter(String trail) {
        assertTrue(trail.contains("queued[0] = 1") || trail.contains("queued[1] = 1"),
                "the counterexample must end with a queued waiter:\n" + trail);
        assertTrue(trail.contains("needed = 0"), "with arc_evict_needed false:\n" + trail);
    }
}
