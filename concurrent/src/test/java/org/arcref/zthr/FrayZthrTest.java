package org.arcref.zthr;

import static org.arcref.fray.FrayExplorer.actors;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.fray.FrayExplorer;
import org.arcref.fray.FrayExplorer.Budget;
import org.arcref.fray.FrayExplorer.Kind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model M2's properties (docs/formal-models.md, "M2 zthr") checked on the real {@link Zthr} under Fray's
 * schedulers (ZFS {@code zthr_procedure}, {@code zthr_wakeup}, {@code zthr_cancel}, {@code zthr_resume},
 * {@code zthr_wait_cycle_done}). A lost wakeup, a stranded waiter or a deadlock leaves every thread blocked, which
 * Fray reports as a deadlock; an assertion (Z1, Z4, including {@code Zthr}'s own under {@code -ea}) fails the
 * schedule. Every scenario cancels its zthr at the end, so that no worker outlives its schedule. Each scenario also
 * runs on the historical and broken variants of the test sources, which it must catch within the CI budget.
 */
@Timeout(60)
class FrayZthrTest {
    /** Schedules per scenario and scheduler in the default build; {@code -Dfray.iterations} overrides it. */
    static final Budget BUDGET = new Budget(150, 4_000, 90);
    /** The budget a broken variant must be caught within. */
    static final Budget CATCH = new Budget(150, 4_000, 0);

    /** Creates a zthr with the given callbacks whose worker runs at once: {@link Zthr#create} or a variant's. */
    @FunctionalInterface
    interface Factory {
        Zthr create(ZthrCheckFunc check, ZthrFunc func);
    }

    /** Creates a zthr whose first worker is held until {@link HeldStartZthr#startHeldWorker()}. */
    @FunctionalInterface
    interface HeldFactory {
        HeldStartZthr create(ZthrCheckFunc check, ZthrFunc func);
    }

    static final Factory REAL = (check, func) -> Zthr.create("fray", check, func, ZthrPriority.DEFCLSYSPRI);
    static final HeldFactory REAL_HELD = (check, func) -> HeldStartZthr.create("fray", check, func);

    /**
     * Z2, Z5 (no lost wakeup): two producers each publish a unit of work, wake the zthr and wait until both units
     * are served; the check reads the published work under the state lock. Catches a check run without the state
     * lock ({@link LostWakeupZthr}): a wakeup between the check and the sleep is lost and both producers wait for
     * ever. (A {@code Semaphore} here hung Fray 0.9.2 itself, outside its deadlock detection; the latch does not.)
     */
    static void wakeupIsNeverLost(Factory factory) {
        AtomicInteger pending = new AtomicInteger();
        CountDownLatch served = new CountDownLatch(2);
        Zthr z = factory.create(t -> pending.get() > 0, t -> {
            pending.decrementAndGet();
            served.countDown();
        });
        Runnable producer = () -> {
            pending.incrementAndGet();
            z.wakeup();
            awaitUninterruptibly(served);
        };
        actors(producer, producer);
        z.cancel();
    }

    /**
     * Z1, Z4 (cancel and resume; the #7744 shape): a canceller, a resumer that resumes only a stopped zthr (the
     * callers of 2.1.1 and of pre-#8229 code check first) and a producer race; afterwards a final cancel must leave
     * no worker and no work may run after it (Z1), and {@code Zthr}'s assertions check Z4 on every resume. Catches
     * pre-#8229's cancel and resume ({@link Pre8229Zthr}, M2's {@code PRE_8229}): a resume between the worker's exit
     * and the canceller's return finds the cancel still in progress.
     */
    static void cancelAndResume(Factory factory) {
        AtomicInteger pending = new AtomicInteger();
        boolean[] stopped = new boolean[1];
        Zthr z = factory.create(t -> pending.get() > 0, t -> {
            if (stopped[0]) {
                throw new AssertionError("Z1: the work function ran after cancel() returned");
            }
            pending.set(0);
        });
        boolean returned = actors(z::cancel, () -> {
            if (!z.isRunning()) {
                z.resume();
            }
        }, () -> {
            pending.incrementAndGet();
            z.wakeup();
        });
        z.cancel();
        stopped[0] = true;
        if (returned) {
            assertFalse(z.isRunning(), "Z1: a worker survived a completed cancel()");
        }
        pending.incrementAndGet();
        z.wakeup();
    }

    /**
     * Z2, Z4 (the #8333 shape): the work function waits for a thread (spa_sync in ZFS) that wakes the zthr and then
     * lets the work finish, while a cancel waits for the worker. Catches a wakeup that takes the request lock
     * ({@link RequestLockedWakeupZthr}, M2's {@code WAKEUP_TAKES_REQUEST_LOCK}): the cancel holds it, so the three
     * wait for each other.
     */
    static void wakeupDuringCancel(Factory factory) {
        AtomicInteger pending = new AtomicInteger(1);
        CountDownLatch synced = new CountDownLatch(1);
        Zthr z = factory.create(t -> pending.get() > 0, t -> {
            pending.set(0);
            awaitUninterruptibly(synced);
        });
        actors(z::cancel, () -> {
            z.wakeup();
            synced.countDown();
        });
    }

    /**
     * Z3 ({@code zthr_wait_cycle_done}): a waiter and a producer race on a running zthr; the waiter must return.
     */
    static void waitCycleDone(Factory factory) {
        AtomicInteger pending = new AtomicInteger();
        Zthr z = factory.create(t -> pending.get() > 0, t -> pending.set(0));
        actors(z::waitCycleDone, () -> {
            pending.incrementAndGet();
            z.wakeup();
        });
        z.cancel();
    }

    /**
     * Z3 at start-up: a waiter registers while the new worker may still be starting (the thread exists and has not
     * taken the state lock) and no wakeup follows; the worker's first iteration must release it. Catches 2.1.1's
     * start-up sleep ({@link StartupSleepZthr}, M2's {@code STARTUP_SLEEP_2_1_1}).
     */
    static void waiterAtStartUp(HeldFactory factory) {
        HeldStartZthr z = factory.create(t -> false, t -> { });
        actors(z::startHeldWorker, z::waitCycleDone);
        z.cancel();
    }

    /**
     * Z3 at start-up with a cancel pending: a canceller, a waiter and the start of the worker race; the exiting
     * worker must release the waiter. Catches 2.1.1's exit path ({@link ExitKeepsWaitersZthr}, M2's
     * {@code EXIT_KEEPS_WAITERS}).
     */
    static void waiterAtStartUpWithCancel(HeldFactory factory) {
        HeldStartZthr z = factory.create(t -> false, t -> { });
        actors(z::cancel, z::startHeldWorker, z::waitCycleDone);
        z.cancel();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z2, Z5: a wakeup given after publishing work is never lost")
    void wakeupIsNeverLost(Kind kind) {
        FrayExplorer.explore("zthr-wakeup", kind, BUDGET, () -> wakeupIsNeverLost(REAL)).assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z1, Z4: cancel, resume and wakeup race; no worker or work survives a cancel")
    void cancelAndResume(Kind kind) {
        FrayExplorer.explore("zthr-cancel-resume", kind, BUDGET, () -> cancelAndResume(REAL)).assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z2, Z4 (#8333): a wakeup from the thread the work waits for does not block behind cancel")
    void wakeupDuringCancel(Kind kind) {
        FrayExplorer.explore("zthr-wakeup-during-cancel", kind, BUDGET, () -> wakeupDuringCancel(REAL))
                .assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z3: waitCycleDone returns against a concurrent wakeup")
    void waitCycleDone(Kind kind) {
        FrayExplorer.explore("zthr-wait-cycle-done", kind, BUDGET, () -> waitCycleDone(REAL)).assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z3: a waiter that registers while the worker starts is released")
    void waiterAtStartUp(Kind kind) {
        FrayExplorer.explore("zthr-startup", kind, BUDGET, () -> waiterAtStartUp(REAL_HELD)).assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("Z3: a waiter that registers while a cancelled worker starts is released by its exit")
    void waiterAtStartUpWithCancel(Kind kind) {
        FrayExplorer.explore("zthr-startup-cancel", kind, BUDGET, () -> waiterAtStartUpWithCancel(REAL_HELD))
                .assertPassed();
    }

    @Test
    @DisplayName("Z2 catches the check run without the state lock (LostWakeupZthr)")
    void catchesLostWakeup() {
        FrayExplorer.assertCaught("zthr-wakeup-lost-wakeup", CATCH, () -> wakeupIsNeverLost(
                (check, func) -> LostWakeupZthr.create("fray", check, func, ZthrPriority.DEFCLSYSPRI)));
    }

    @Test
    @DisplayName("Z4 catches pre-#8229 cancel and resume (Pre8229Zthr, #7744)")
    void catchesPre8229() {
        FrayExplorer.assertCaught("zthr-cancel-resume-pre-8229", CATCH, () -> cancelAndResume(
                (check, func) -> Pre8229Zthr.create("fray", check, func, ZthrPriority.DEFCLSYSPRI)));
    }

    @Test
    @DisplayName("Z2, Z4 catch a wakeup that takes the request lock (RequestLockedWakeupZthr, #8333)")
    void catchesRequestLockedWakeup() {
        FrayExplorer.assertCaught("zthr-wakeup-during-cancel-request-locked", CATCH, () -> wakeupDuringCancel(
                (check, func) -> RequestLockedWakeupZthr.create("fray", check, func, ZthrPriority.DEFCLSYSPRI)));
    }

    @Test
    @DisplayName("Z3 catches 2.1.1's start-up sleep (StartupSleepZthr)")
    void catchesStartupSleep() {
        FrayExplorer.assertCaught("zthr-startup-sleep", CATCH, () -> waiterAtStartUp(
                (check, func) -> StartupSleepZthr.create("fray", check, func)));
    }

    @Test
    @DisplayName("Z3 catches 2.1.1's exit path that keeps its waiters (ExitKeepsWaitersZthr)")
    void catchesExitKeepsWaiters() {
        FrayExplorer.assertCaught("zthr-startup-cancel-exit-keeps-waiters", CATCH, () -> waiterAtStartUpWithCancel(
                (check, func) -> ExitKeepsWaitersZthr.create("fray", check, func)));
    }
}
