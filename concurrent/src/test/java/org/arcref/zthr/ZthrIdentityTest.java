package org.arcref.zthr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What a zthr tells about itself: its name, priority, timer and string form to anyone, and, to its own work
 * function, whether it is being cancelled ({@code zthr_iscancelled}) and whether a {@code waitCycleDone} caller
 * waits ({@code zthr_has_waiters}).
 */
class ZthrIdentityTest {

    @Test
    @DisplayName("name, priority, timer and string form are those given at creation")
    void identity() {
        Zthr plain = Zthr.create("plain", z -> false, z -> { }, ZthrPriority.MINCLSYSPRI);
        Zthr timer = Zthr.createTimer("timed", z -> false, z -> { }, TimeUnit.MILLISECONDS.toNanos(250),
                ZthrPriority.DEFCLSYSPRI);
        try {
            assertEquals("plain", plain.name());
            assertEquals(ZthrPriority.MINCLSYSPRI, plain.priority());
            assertEquals(0, plain.maxSleepNanos());
            assertEquals("Zthr[plain, MINCLSYSPRI]", plain.toString());
            assertEquals(TimeUnit.MILLISECONDS.toNanos(250), timer.maxSleepNanos());
            assertEquals("Zthr[timed, DEFCLSYSPRI, timer 250 ms]", timer.toString());
        } finally {
            plain.cancel();
            plain.destroy();
            timer.cancel();
            timer.destroy();
        }
    }

    @Test
    @DisplayName("Z3: the work function sees no waiter until a waitCycleDone caller arrives, and is not cancelled")
    void workFunctionSeesWaitersAndCancellation() throws Exception {
        AtomicBoolean work = new AtomicBoolean(true);
        AtomicReference<Boolean> waitersAtStart = new AtomicReference<>();
        AtomicReference<Boolean> cancelledAtStart = new AtomicReference<>();
        AtomicBoolean sawWaiter = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(1);
        Zthr zthr = Zthr.create("identity", z -> work.get(), z -> {
            work.set(false);
            waitersAtStart.set(z.hasWaiters());
            cancelledAtStart.set(z.isCancelled());
            started.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!z.hasWaiters() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            sawWaiter.set(z.hasWaiters());
        }, ZthrPriority.DEFCLSYSPRI);
        try {
            assertTrue(started.await(10, TimeUnit.SECONDS), "the work function ran");
            Thread waiter = new Thread(zthr::waitCycleDone);
            waiter.start();
            waiter.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(waiter.isAlive(), "waitCycleDone returned after the cycle");
            assertEquals(Boolean.FALSE, waitersAtStart.get(), "no waiter before one arrived");
            assertEquals(Boolean.FALSE, cancelledAtStart.get(), "nobody cancelled");
            assertTrue(sawWaiter.get(), "the waiter was seen by the work function");
        } finally {
            zthr.cancel();
            zthr.destroy();
        }
    }

    @Test
    @DisplayName("Z1: a work function that runs until isCancelled() ends when the zthr is cancelled")
    void workFunctionSeesTheCancel() throws Exception {
        AtomicBoolean work = new AtomicBoolean(true);
        CountDownLatch started = new CountDownLatch(1);
        Zthr zthr = Zthr.create("until-cancelled", z -> work.get(), z -> {
            work.set(false);
            started.countDown();
            while (!z.isCancelled()) {
                Thread.onSpinWait();
            }
        }, ZthrPriority.DEFCLSYSPRI);
        assertTrue(started.await(10, TimeUnit.SECONDS), "the work function ran");
        Thread canceller = new Thread(zthr::cancel, "until-cancelled-canceller");
        canceller.setDaemon(true);
        canceller.start();
        canceller.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(canceller.isAlive(), "Z1: cancel() still waits after 10 s: the work function polling"
                + " isCancelled() never saw the cancel");
        assertFalse(zthr.isRunning(), "Z1: no worker after cancel returned");
        zthr.destroy();
    }
}
