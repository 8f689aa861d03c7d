package org.arcref.models.zthr;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.models.SpinCheck;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * M2: the zthr protocol ({@code zthr.pml}) checked exhaustively by spin. The faithful model (our {@code Zthr}) keeps
 * Z1-Z5; each broken variant (zfs-2.1.1's start-up and exit paths, #8333, #7744, and the lost-wakeup variant) is
 * refuted, and its counterexample must show the steps that make the bug. {@link ZthrCounterexampleReplayTest}
 * replays each counterexample against the matching Java variant. Mapping, bounds and figures:
 * {@code docs/formal-models.md}, section M2.
 */
class ZthrModelTest {
    private static final String MODEL = "zthr.pml";
    /** Weak fairness must follow up to 9 processes (the claim included), 11 at the large bounds (4·NFAIR − 2). */
    private static final int NFAIR = 3;
    private static final int NFAIR_LARGE = 4;

    @Test
    @DisplayName("Z1, Z2, Z4 and no deadlock or stranded waiter (Z3): assertions and end states hold")
    void z1z2z3z4SafetyHolds() {
        SpinCheck.safety(MODEL).assertHolds();
    }

    @Test
    @DisplayName("Z3: every waitCycleDone caller returns, under weak fairness")
    void z3EveryWaiterReturns() {
        SpinCheck.ltl(MODEL, "z3").nfair(NFAIR).assertHolds();
    }

    @Test
    @DisplayName("Z5: a wakeup while the check is true leads to a run of the work function, under weak fairness")
    void z5WakeupWithWorkLeadsToWork() {
        SpinCheck.ltl(MODEL, "z5").nfair(NFAIR).assertHolds();
    }

    @Test
    @DisplayName("Z3: zfs-2.1.1's worker sleeps although a waiter registered while it was starting")
    void z3StartupSleepOf211IsRefuted() {
        String trail = SpinCheck.safety(MODEL).define("STARTUP_SLEEP_2_1_1").assertRefuted();
        assertSteps(trail, "(waiter:1)", "hasWaiters = 1", "(worker:1)", "cv = (cv|(1<<_pid))");
        SpinCheck.ltl(MODEL, "z3").define("STARTUP_SLEEP_2_1_1").nfair(NFAIR).assertRefuted();
    }

    @Test
    @DisplayName("Z3: zfs-2.1.1's exit path leaves a waiter that registered while a cancelled worker was starting")
    void z3ExitPathOf211IsRefuted() {
        String trail = SpinCheck.safety(MODEL).define("EXIT_KEEPS_WAITERS").assertRefuted();
        assertSteps(trail, "(worker:1)", "[(cancel)]", "thread = 0", "#processes", "hasWaiters = 1",
                "waiting = 1");
    }

    @Test
    @DisplayName("Z2, Z4: #8333, a wakeup that takes the request lock deadlocks with cancel")
    void z2z4WakeupTakingTheRequestLockIsRefuted() {
        String trail = SpinCheck.safety(MODEL).define("WAKEUP_TAKES_REQUEST_LOCK").assertRefuted();
        assertSteps(trail, "(canceller:1)", "requestLock = (_pid+1)", "cancel = 1", "(worker:1)",
                "served = requested");
    }

    @Test
    @DisplayName("Z4: #7744, before #8229 a resume between the worker's exit and cancel's return fails its assertion")
    void z4Pre8229ResumeDuringCancelIsRefuted() {
        String trail = SpinCheck.safety(MODEL).define("PRE_8229").assertRefuted();
        assertSteps(trail, "(worker:1)", "thread = 0", "(resumer:1)", "assert(!(cancel))", "#processes",
                "cancel = 1");
    }

    @Test
    @DisplayName("Z4: zfs-2.1.1's ASSERT(!zthr_haswaiters) in zthr_resume fails when a running zthr is resumed while"
            + " a waitCycleDone caller waits")
    void z4ResumeAssertOf211FailsOnARunningZthr() {
        String trail = SpinCheck.safety(MODEL).define("RESUME_ASSERT_2_1_1").assertRefuted();
        assertSteps(trail, "hasWaiters = 1", "(resumer:1)", "assert(!(hasWaiters))");
    }

    @Test
    @DisplayName("Z5: a check run without the state lock loses a wakeup (LostWakeupZthr)")
    void z5CheckWithoutTheLockIsRefuted() {
        String trail = SpinCheck.ltl(MODEL, "z5").define("CHECK_WITHOUT_LOCK").nfair(NFAIR).assertRefuted();
        assertSteps(trail, "workSeen = (served<requested)", "requested = (requested+1)", "kicked = 1",
                "(worker:1)", "cv = (cv|(1<<_pid))", "START OF CYCLE");
    }

    @Test
    @EnabledIfSystemProperty(named = "models.large", matches = "true")
    @DisplayName("Z1-Z5 at the large bounds (two waiters, two producers); no cycle at all, so no busy loop (pan -l)")
    void z1toZ5HoldAtLargeBounds() {
        SpinCheck.safety(MODEL).define("WAITERS", 2).define("PRODUCERS", 2).assertHolds();
        SpinCheck.ltl(MODEL, "z3").define("WAITERS", 2).define("PRODUCERS", 2).nfair(NFAIR_LARGE).assertHolds();
        SpinCheck.ltl(MODEL, "z5").define("WAITERS", 2).define("PRODUCERS", 2).nfair(NFAIR_LARGE).assertHolds();
        SpinCheck.nonProgress(MODEL).define("WAITERS", 2).define("PRODUCERS", 2).nfair(NFAIR_LARGE).assertHolds();
    }

    /** The counterexample contains these steps in this order (each after the previous one). */
    private static void assertSteps(String trail, String... steps) {
        int at = 0;
        for (String step : steps) {
            int found = trail.indexOf(step, at);
            assertTrue(found >= 0, "the counterexample should show '" + step + "' after position " + at + ":\n"
                    + trail);
            at = found + step.length();
        }
    }
}
