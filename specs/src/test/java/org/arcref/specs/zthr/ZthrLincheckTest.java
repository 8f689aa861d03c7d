package org.arcref.specs.zthr;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules.Exploration;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.zthr.LostWakeupZthr;
import org.arcref.zthr.Pre8229Zthr;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrCheckFunc;
import org.arcref.zthr.ZthrFunc;
import org.arcref.zthr.ZthrPriority;
import org.jetbrains.lincheck.LincheckSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Z1-Z5 under Lincheck's model checker, systematically up to a stated number of thread switches: a wakeup is never
 * lost, and wakeup, waitCycleDone, cancel and resume never deadlock or hang; each scenario also runs, with the same
 * settings, on a broken zthr it must catch.
 *
 * <p>This uses Lincheck's general-purpose model checking ({@code runConcurrentTest}) rather than the
 * data-structure API: a zthr owns a worker thread, and the model checker tracks only threads started inside the
 * checked code; a worker started in a test-class constructor is invisible to it and makes every cancel look hung.
 * Here the zthr, its workers and the client threads all start inside the checked code. The scenarios are lambdas
 * that call the factories directly: code reached only through a method reference may not be instrumented by
 * Lincheck 3.7 (seen with {@code AggSum::create}; an earlier version of this class ran its control scenario as a
 * method reference, and whether that was affected was not measured).
 * Every run prints the schedules it explored ({@link ExploredSchedules}) and fails below a minimum, so a search that
 * collapses cannot pass silently.
 *
 * <p>What it cannot see: weak-memory effects (the checker runs sequentially consistent schedules; a missing
 * {@code volatile} is JCStress's job); the timer of {@code zthr_create_timer} (Lincheck freezes
 * {@code System.nanoTime()}, so a timed sleep would never time out; these zthrs have no timer); schedules with more
 * switches than the bound below, unless the invocation budget reaches them; and the start-up race of model M2 (the
 * producer's own wakeup ends the sleep that would strand a waiter; {@code docs/concurrency-checks.md}).
 */
class ZthrLincheckTest {
    /**
     * The invocation budget of the wakeup checks: every schedule with at most 4 switches (214 with those of fewer)
     * and some with 5; {@code -Dlincheck.zthr.invocations=N} runs longer.
     */
    private static final int WAKEUP_INVOCATIONS = Integer.getInteger("lincheck.zthr.invocations", 250);
    /**
     * The invocation budget of the control checks: every schedule with at most 3 switches (35 with those of fewer)
     * and some with 4 (a complete bound of 4 needs more than 2,000); the same property runs longer.
     */
    private static final int CONTROL_INVOCATIONS = Integer.getInteger("lincheck.zthr.invocations", 100);
    /** Lincheck 3.7's defaults: no loop before the threads start is longer than its 10 iterations. */
    private static final LincheckSettings SETTINGS = new LincheckSettings();

    /**
     * Starts and cancels one zthr outside the model checker, so that the one-time priority-mode log (JMX and
     * logging initialisation) does not run inside it.
     */
    @BeforeAll
    static void initialiseLoggingOutsideTheModelChecker() {
        Zthr.create("warm-up", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI).cancel();
    }

    /** Which zthr class a scenario runs on. */
    private enum Variant {
        REAL, LOST_WAKEUP, PRE_8229;

        Zthr create(ZthrCheckFunc check, ZthrFunc func) {
            return switch (this) {
                case REAL -> Zthr.create("lincheck", check, func, ZthrPriority.DEFCLSYSPRI);
                case LOST_WAKEUP -> LostWakeupZthr.create("lincheck", check, func, ZthrPriority.DEFCLSYSPRI);
                case PRE_8229 -> Pre8229Zthr.create("lincheck", check, func, ZthrPriority.DEFCLSYSPRI);
            };
        }
    }

    /** The work protocol of the zthr header comment: producers raise requested, only the worker raises served. */
    private static final class Work {
        final AtomicInteger requested = new AtomicInteger();
        final AtomicInteger served = new AtomicInteger();
        final CountDownLatch firstServed = new CountDownLatch(1);
        final ZthrCheckFunc check = z -> served.get() < requested.get();
        final ZthrFunc func = z -> {
            served.set(requested.get());
            firstServed.countDown();
        };

        /** Publishes one unit of work and wakes the zthr. */
        void produce(Zthr zthr) {
            requested.incrementAndGet();
            zthr.wakeup();
        }

        /** Waits until a worker has served the work. */
        void awaitServed() {
            try {
                firstServed.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Z2, Z5: a producer publishes work and wakes the zthr while its worker may be starting, checking or going to
     * sleep, then waits until the work is served. A lost wakeup leaves the worker asleep with work pending and the
     * producer waiting for ever, which the model checker reports as a hang.
     */
    private static void wakeupScenario(Variant variant) {
        ExploredSchedules.count();
        Work work = new Work();
        Zthr zthr = variant.create(work.check, work.func);
        Thread producer = new Thread(() -> {
            work.produce(zthr);
            work.awaitServed();
        });
        producer.start();
        join(producer);
        cancelAndCheckStopped(zthr);
    }

    /**
     * Z1-Z4: a producer publishes work, wakes the zthr and waits for a cycle; a controller cancels it; the main
     * thread resumes it if it is not running (as zthr.c's callers do), racing the cancel. Afterwards a stopped zthr
     * is resumed and the work must be served (a resumed worker checks first); then cancel must leave no worker. No
     * interleaving may deadlock, hang or fail an assertion; a resume that finds a cancel in progress (#7744,
     * {@link Pre8229Zthr}) fails one.
     */
    private static void controlScenario(Variant variant) {
        ExploredSchedules.count();
        Work work = new Work();
        Zthr zthr = variant.create(work.check, work.func);
        Thread producer = new Thread(() -> {
            work.produce(zthr);
            zthr.waitCycleDone();
        });
        Thread controller = new Thread(() -> zthr.cancel());
        producer.start();
        controller.start();
        resumeIfStopped(zthr);
        join(producer);
        join(controller);
        resumeIfStopped(zthr);
        work.awaitServed();
        cancelAndCheckStopped(zthr);
    }

    private static void resumeIfStopped(Zthr zthr) {
        if (!zthr.isRunning()) {
            zthr.resume();
        }
    }

    /** Z1: after cancel returns no worker exists. */
    private static void cancelAndCheckStopped(Zthr zthr) {
        zthr.cancel();
        if (zthr.isRunning()) {
            throw new PropertyViolation(Property.Z1, "a worker survived cancel", "");
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs a scenario on the real zthr and requires its whole budget of {@code invocations} schedules (the space is
     * larger) and every schedule with at most {@code switches} switches.
     */
    private static void assertExplored(String name, int invocations, Runnable scenario, int switches) {
        Exploration run = ExploredSchedules.run(name, invocations, SETTINGS, scenario);
        assertTrue(run.invocations() >= invocations,
                name + ": the search collapsed to " + run + ", expected " + invocations + " invocations");
        assertTrue(run.completeBound() >= switches,
                name + ": not every schedule with at most " + switches + " switches ran: " + run);
    }

    /**
     * Runs a scenario on a broken zthr; Lincheck must report a failure whose message contains {@code symptom}, which
     * is returned.
     */
    private static AssertionError assertCaught(String name, int invocations, Runnable scenario, String symptom) {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> ExploredSchedules.run(name, invocations, SETTINGS, scenario));
        assertTrue(failure.getMessage().contains(symptom), failure.getMessage());
        return failure;
    }

    @Test
    @DisplayName("Z2, Z5: a wakeup given after work is published is never lost (model checking)")
    void wakeupIsNeverLost() {
        assertExplored("zthr wakeup", WAKEUP_INVOCATIONS, () -> wakeupScenario(Variant.REAL),
                4);
    }

    @Test
    @DisplayName("Z2, Z5: the same model checking catches a zthr whose wakeup can be lost, and its schedule shows how")
    void modelCheckingCatchesLostWakeup() {
        AssertionError failure = assertThrows(AssertionError.class, () -> ExploredSchedules.run(
                "zthr wakeup on LostWakeupZthr", WAKEUP_INVOCATIONS, SETTINGS,
                () -> wakeupScenario(Variant.LOST_WAKEUP)));
        assertLostWakeup(failure.getMessage());
    }

    /**
     * Requires a Lincheck report to be Z5's liveness failure. A lost wakeup shows as Lincheck's verdict that the run "has
     * hung": its scheduler found every unfinished thread blocked or spinning without progress, a verdict of the model
     * checker on one schedule within its own bound, not a wall-clock time-out. The verdict alone does not say why, so
     * the schedule it prints (the first table, one row per event in execution order) must show Z5's shape: the
     * worker's check read "no work" ({@code checkFunc.check(...): false}), then the producer published the work and
     * woke the zthr ({@code work.produce}), then the worker went to sleep ({@code sleep()}) and parked.
     *
     * @throws AssertionError if the report is not a hang, or its schedule does not have that order
     */
    private static void assertLostWakeup(String report) {
        assertTrue(report.contains("Concurrent test has hung"), "Z5: expected Lincheck's hang verdict:\n" + report);
        String schedule = report.substring(0, report.indexOf("Detailed trace:"));
        int check = schedule.indexOf("checkFunc.check(LostWakeupZthr#1): false");
        int produce = schedule.indexOf("work.produce(LostWakeupZthr#1)");
        int sleep = schedule.indexOf("sleep()", Math.max(produce, 0));
        int park = schedule.indexOf("PARK", Math.max(sleep, 0));
        assertTrue(check >= 0 && produce > check && sleep > produce && park > sleep,
                "Z5: the hang's schedule is not a wakeup lost between the check and the sleep (check " + check
                        + ", produce " + produce + ", sleep " + sleep + ", park " + park + "):\n" + schedule);
    }

    @Test
    @DisplayName("Z1-Z4: wakeup, waitCycleDone, cancel and resume never deadlock or hang (model checking)")
    void controlNeverDeadlocksOrHangs() {
        assertExplored("zthr control", CONTROL_INVOCATIONS, () -> controlScenario(Variant.REAL),
                3);
    }

    @Test
    @DisplayName("Z4: the same model checking catches a resume that finds a cancel in progress (#7744)")
    void modelCheckingCatchesPre8229Resume() {
        AssertionError failure = assertCaught("zthr control on Pre8229Zthr", CONTROL_INVOCATIONS,
                () -> controlScenario(Variant.PRE_8229), "#7744");
        assertThrows(AssertionError.class, () -> assertLostWakeup(failure.getMessage()),
                "a failure of another kind is not read as a lost wakeup");
    }
}
