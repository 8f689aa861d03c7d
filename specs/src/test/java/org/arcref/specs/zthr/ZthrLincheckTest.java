package org.arcref.specs.zthr;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.zthr.LostWakeupZthr;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrCheckFunc;
import org.arcref.zthr.ZthrFunc;
import org.arcref.zthr.ZthrPriority;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Z1-Z5 under Lincheck's model checker: wakeup, waitCycleDone, cancel and resume of {@link Zthr} never deadlock
 * or hang, a wakeup is never lost, and the wakeup check catches a zthr whose wakeup can be lost.
 *
 * <p>This uses Lincheck's general-purpose model checking ({@link Lincheck#runConcurrentTest}) rather than the
 * data-structure API: a zthr owns a worker thread, and the model checker tracks only threads started inside the
 * checked code; a worker started in a test-class constructor is invisible to it and makes every cancel look hung.
 * Here the zthr, its workers and the client threads all start inside the checked code, so the interleavings of all
 * of them are explored. (Creating the zthr through a method reference made Lincheck 3.7 report a hang without a
 * trace; the scenarios therefore call the factories directly.)
 */
class ZthrLincheckTest {
    private static final int INVOCATIONS = 1000;

    /**
     * Starts and cancels one zthr outside the model checker, so that the one-time priority-mode log (JMX and
     * logging initialisation) does not run inside it.
     */
    @BeforeAll
    static void initialiseLoggingOutsideTheModelChecker() {
        Zthr.create("warm-up", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI).cancel();
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

        Zthr newZthr(boolean lostWakeupVariant) {
            return lostWakeupVariant
                    ? LostWakeupZthr.create("lincheck", check, func, ZthrPriority.DEFCLSYSPRI)
                    : Zthr.create("lincheck", check, func, ZthrPriority.DEFCLSYSPRI);
        }

        /** Publishes one unit of work and wakes the zthr, then waits until the worker has served it. */
        void produceAndAwait(Zthr zthr) {
            requested.incrementAndGet();
            zthr.wakeup();
            try {
                firstServed.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Z2, Z5: a producer publishes work and wakes the zthr while its worker may be starting, checking or going to
     * sleep. A lost wakeup leaves the worker asleep with work pending and the producer waiting for ever, which the
     * model checker reports as a hang.
     */
    private static void wakeupScenario(boolean lostWakeupVariant) {
        Work work = new Work();
        Zthr zthr = work.newZthr(lostWakeupVariant);
        Thread producer = new Thread(() -> work.produceAndAwait(zthr));
        producer.start();
        join(producer);
        cancelAndCheckStopped(zthr);
    }

    /**
     * Z1-Z4: the producer of {@link #wakeupScenario} races a controller that waits for a cycle, cancels and
     * resumes the zthr. The work is always served (by the first worker or by the resumed one, which checks
     * first), and no interleaving may deadlock or hang.
     */
    private static void controlScenario() {
        Work work = new Work();
        Zthr zthr = work.newZthr(false);
        Thread producer = new Thread(() -> work.produceAndAwait(zthr));
        Thread controller = new Thread(() -> {
            zthr.waitCycleDone();
            zthr.cancel();
            zthr.resume();
        });
        producer.start();
        controller.start();
        join(producer);
        join(controller);
        cancelAndCheckStopped(zthr);
    }

    /** Z1: after cancel returns no worker exists. */
    private static void cancelAndCheckStopped(Zthr zthr) {
        zthr.cancel();
        if (zthr.isRunning()) {
            throw new IllegalStateException("Z1 violated: a worker survived cancel");
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    @DisplayName("Z2, Z5: a wakeup given after work is published is never lost (model checking)")
    void wakeupIsNeverLost() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> wakeupScenario(false));
    }

    @Test
    @DisplayName("Z1-Z4: wakeup, waitCycleDone, cancel and resume never deadlock or hang (model checking)")
    void controlNeverDeadlocksOrHangs() {
        Lincheck.runConcurrentTest(INVOCATIONS, ZthrLincheckTest::controlScenario);
    }

    @Test
    @DisplayName("Z2, Z5: model checking catches a zthr whose wakeup can be lost")
    void modelCheckingCatchesLostWakeup() {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> Lincheck.runConcurrentTest(INVOCATIONS, () -> wakeupScenario(true)));
        assertTrue(failure.getMessage().contains("hung"), failure.getMessage());
    }
}
