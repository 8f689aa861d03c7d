package org.arcref.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The harness every model relies on: {@link SpinCheck} passes a model that holds, refutes one that does not with a
 * readable counterexample, and refuses to call an incomplete search a proof. Runs {@code harness.pml}.
 */
class SpinCheckTest {

    @Test
    void aLockedCountHoldsWithACompleteSearch() {
        PanReport report = SpinCheck.safety("harness.pml").define("LOCKED").assertHolds();
        assertEquals(0, report.errors());
        assertTrue(report.complete());
        assertTrue(report.statesStored() > 0 && report.transitions() >= report.statesStored(),
                "states and transitions are read from the report: " + report);
        assertTrue(report.unreached().isEmpty(), "every statement is reached: " + report.unreached());
    }

    @Test
    void aLostUpdateIsRefutedWithItsCounterexample() {
        String trail = SpinCheck.safety("harness.pml").assertRefuted();
        assertTrue(trail.contains("assertion violated"), trail);
        assertTrue(trail.contains("count = seen+1") || trail.contains("count = (seen+1)"),
                "the replay keeps the steps that write: " + trail);
    }

    @Test
    void anUnexpectedErrorFailsWithTheCounterexample() {
        AssertionError error = assertThrows(AssertionError.class, () -> SpinCheck.safety("harness.pml").assertHolds());
        assertTrue(error.getMessage().contains("assertion violated"), error.getMessage());
    }

    @Test
    void aSearchCutShortByTheDepthLimitIsNoProof() {
        AssertionError error = assertThrows(AssertionError.class,
                () -> SpinCheck.safety("harness.pml").define("LOCKED").define("UNBOUNDED").depth(50).assertHolds());
        assertTrue(error.getMessage().contains("incomplete"), error.getMessage());
    }

    @Test
    void aStatementNoInterleavingReachesFailsASafetyCheck() {
        AssertionError error = assertThrows(AssertionError.class,
                () -> SpinCheck.safety("harness.pml").define("LOCKED").define("DEAD").assertHolds());
        assertTrue(error.getMessage().contains("unreached in init") && error.getMessage().contains("count = 0"),
                error.getMessage());
    }

    @Test
    void anOptionThatDoesNothingAndIsNeverTakenFailsASafetyCheck() {
        // an empty ':: else' compiles to no statement of its own; the REACHED marker (reached.h) makes it one
        AssertionError error = assertThrows(AssertionError.class,
                () -> SpinCheck.safety("harness.pml").define("LOCKED").define("DEAD_ELSE").assertHolds());
        assertTrue(error.getMessage().contains("unreached in init") && error.getMessage().contains("assert(1)"),
                error.getMessage());
    }

    @Test
    void anLtlClaimHoldsUnderWeakFairnessAndIsRefutedWithoutTheLock() {
        SpinCheck.ltl("harness.pml", "bothCounted").define("LOCKED").assertHolds();
        SpinCheck.ltl("harness.pml", "bothCounted").assertRefuted();
    }

    @Test
    void aVariantThatHoldsIsNotCalledRefuted() {
        assertThrows(AssertionError.class, () -> SpinCheck.safety("harness.pml").define("LOCKED").assertRefuted());
    }
}
