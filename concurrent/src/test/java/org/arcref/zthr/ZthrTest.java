package org.arcref.zthr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ZthrTest {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    /** Work published by tests: the check says "work" while requested > served; the work serves everything. */
    private final AtomicInteger requested = new AtomicInteger();
    private final AtomicInteger served = new AtomicInteger();
    private final List<Zthr> created = new CopyOnWriteArrayList<>();

    private Zthr counting(String name) {
        return track(Zthr.create(name, z -> served.get() < requested.get(), z -> served.set(requested.get()),
                ZthrPriority.DEFCLSYSPRI));
    }

    private Zthr track(Zthr zthr) {
        created.add(zthr);
        return zthr;
    }

    @AfterEach
    void cancelAll() {
        created.forEach(Zthr::cancel);
    }

    private void request() {
        requested.incrementAndGet();
    }

    @Test
    @DisplayName("Z3, Z5: work published before a wakeup is done by the time waitCycleDone returns")
    void wakeupRunsTheWork() {
        Zthr zthr = counting("wakeup");
        assertTimeoutPreemptively(LIMIT, () -> {
            request();
            zthr.wakeup();
            while (served.get() < 1) {
                zthr.waitCycleDone();
            }
        });
        assertEquals(1, served.get());
    }

    @Test
    @DisplayName("Z2: the check runs with the state lock held, the work without it")
    void checkHoldsTheStateLockAndWorkDoesNot() {
        AtomicBoolean checkHeld = new AtomicBoolean();
        AtomicBoolean workHeld = new AtomicBoolean(true);
        Zthr zthr = track(Zthr.create("locks", z -> {
            checkHeld.set(z.stateLock.isHeldByCurrentThread());
            return served.get() < requested.get();
        }, z -> {
            workHeld.set(z.stateLock.isHeldByCurrentThread());
            served.set(requested.get());
        }, ZthrPriority.DEFCLSYSPRI));
        assertTimeoutPreemptively(LIMIT, () -> {
            request();
            while (served.get() < 1) {
                zthr.waitCycleDone();
            }
        });
        assertTrue(checkHeld.get(), "check must hold the state lock");
        assertFalse(workHeld.get(), "work must not hold the state lock");
    }

    @Test
    @DisplayName("Z1: after cancel returns no worker exists and no work runs, even when woken")
    void cancelStopsTheWorker() throws InterruptedException {
        Zthr zthr = counting("cancel");
        assertTimeoutPreemptively(LIMIT, zthr::cancel);
        assertFalse(zthr.isRunning());
        request();
        zthr.wakeup();
        zthr.waitCycleDone();
        TimeUnit.MILLISECONDS.sleep(50);
        assertEquals(0, served.get(), "no work may run after cancel returned");
    }

    @Test
    @DisplayName("Z4: resume starts a new worker with the same name and priority; a second resume is a no-op")
    void resumeRestartsTheWorker() {
        AtomicReference<Thread> worker = new AtomicReference<>();
        Zthr zthr = track(Zthr.create("arc_evict", z -> served.get() < requested.get(), z -> {
            worker.set(Thread.currentThread());
            served.set(requested.get());
        }, ZthrPriority.MAXCLSYSPRI));
        zthr.cancel();
        zthr.resume();
        zthr.resume();
        assertTrue(zthr.isRunning());
        assertTimeoutPreemptively(LIMIT, () -> {
            request();
            while (served.get() < 1) {
                zthr.waitCycleDone();
            }
        });
        assertEquals("arc_evict", worker.get().getName());
        assertEquals(Thread.MAX_PRIORITY, worker.get().getPriority());
        assertTrue(worker.get().isDaemon());
    }

    @Test
    @DisplayName("Z2: wakeup never blocks behind a cancel waiting for long work")
    void wakeupDoesNotBlockBehindCancel() throws Exception {
        CountDownLatch inWork = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Zthr zthr = track(Zthr.create("slow", z -> served.get() < requested.get(), z -> {
            inWork.countDown();
            awaitQuietly(release);
            served.set(requested.get());
        }, ZthrPriority.DEFCLSYSPRI));
        request();
        zthr.wakeup();
        assertTrue(inWork.await(10, TimeUnit.SECONDS));
        Thread canceller = new Thread(zthr::cancel);
        canceller.start();
        while (canceller.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        assertTimeoutPreemptively(Duration.ofSeconds(2), zthr::wakeup, "wakeup blocked behind cancel");
        release.countDown();
        canceller.join(10_000);
        assertFalse(canceller.isAlive(), "cancel returns once the work returns");
        assertFalse(zthr.isRunning());
    }

    @Test
    @DisplayName("Z5: a timer zthr re-checks at least every maxSleep without any wakeup")
    void timerRechecksWithoutWakeup() throws InterruptedException {
        AtomicInteger checks = new AtomicInteger();
        track(Zthr.createTimer("arc_reap", z -> checks.incrementAndGet() < 0, z -> { },
                TimeUnit.MILLISECONDS.toNanos(10), ZthrPriority.MINCLSYSPRI));
        TimeUnit.MILLISECONDS.sleep(300);
        assertTrue(checks.get() >= 3, "expected periodic checks, saw " + checks.get());
    }

    @Test
    @DisplayName("Z3: a work or check function that throws is logged and the zthr keeps serving")
    void throwingCallbacksDoNotStopTheWorker() {
        AtomicInteger calls = new AtomicInteger();
        Zthr zthr = track(Zthr.create("throws", z -> {
            if (requested.get() == 1 && calls.getAndIncrement() == 0) {
                throw new IllegalStateException("check failure injected by the test");
            }
            return served.get() < requested.get();
        }, z -> {
            served.incrementAndGet();
            throw new IllegalStateException("work failure injected by the test");
        }, ZthrPriority.DEFCLSYSPRI));
        assertTimeoutPreemptively(LIMIT, () -> {
            request();
            zthr.waitCycleDone();
            while (served.get() < 1) {
                zthr.waitCycleDone();
            }
            request();
            while (served.get() < 2) {
                zthr.waitCycleDone();
            }
            zthr.cancel();
        });
        assertEquals(2, served.get());
    }

    @Test
    @DisplayName("Z3: a check function that throws counts as no work: the work function does not run after it")
    void throwingCheckMeansNoWork() {
        AtomicInteger checks = new AtomicInteger();
        Zthr zthr = track(Zthr.create("throwing-check", z -> {
            checks.incrementAndGet();
            throw new IllegalStateException("check failure injected by the test");
        }, z -> served.incrementAndGet(), ZthrPriority.DEFCLSYSPRI));
        assertTimeoutPreemptively(LIMIT, () -> {
            while (checks.get() < 2) {
                zthr.waitCycleDone();
            }
        });
        assertEquals(0, served.get(), "the work function ran after its check threw");
    }

    @Test
    @DisplayName("Z3: a worker that dies of an Error releases the waitCycleDone caller waiting for its iteration")
    void dyingWorkerReleasesItsWaiters() throws InterruptedException {
        CountDownLatch working = new CountDownLatch(1);
        CountDownLatch die = new CountDownLatch(1);
        Zthr zthr = track(Zthr.create("dies", z -> served.get() < requested.get(), z -> {
            working.countDown();
            awaitQuietly(die);
            throw new AssertionError("worker death injected by the test");
        }, ZthrPriority.DEFCLSYSPRI));
        request();
        zthr.wakeup(); // the worker's first check may have run before the request
        working.await();
        Thread waiter = new Thread(zthr::waitCycleDone, "waiter");
        waiter.setDaemon(true);
        waiter.start();
        while (!ZthrProbes.parkedInConditionWait(zthr, waiter)) { // registered and asleep, not queued for the lock
            Thread.onSpinWait();
        }
        die.countDown();
        waiter.join(LIMIT.toMillis());
        assertFalse(waiter.isAlive(), "Z3: waitCycleDone still waits " + LIMIT + " after the worker died");
        assertFalse(zthr.isRunning(), "the worker must have exited");
    }

    /**
     * The deviation of the implementation overview (spin's model M2): a waiter that registers while a new worker is
     * starting signals {@code cv} before anyone waits on it, so a worker that found no work and then slept would
     * leave it waiting for a wakeup that never comes. {@link HeldStartZthr} is the real {@link Zthr} with its
     * worker's {@code Thread.start()} deferred, which holds that window open: the waiter registers and parks, then
     * the worker starts, finds no work, and must end its iteration without sleeping.
     */
    @Test
    @DisplayName("Z3: a waiter that registered while the worker was starting is released by the first idle check")
    void waiterRegisteredDuringStartIsReleased() throws InterruptedException {
        HeldStartZthr zthr = HeldStartZthr.create("held-start", z -> false, z -> { });
        track(zthr);
        Thread waiter = new Thread(zthr::waitCycleDone, "held-start-waiter");
        waiter.setDaemon(true);
        waiter.start();
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!ZthrProbes.parkedInConditionWait(zthr, waiter)) { // registered and asleep, not queued for the lock
            assertTrue(System.nanoTime() < deadline, "within " + LIMIT + ", waitCycleDone registers and waits for"
                    + " the held worker; the waiter is " + waiter.getState());
            Thread.onSpinWait();
        }
        Thread worker = zthr.startHeldWorker();
        try {
            waiter.join(LIMIT.toMillis());
            assertFalse(waiter.isAlive(), "Z3: waitCycleDone still waits " + LIMIT + " after the worker started and"
                    + " found no work; the worker is " + worker.getState());
        } finally {
            zthr.wakeup(); // frees a sleeping worker's waiter, so that the test leaves no thread behind
        }
    }

    @Test
    @DisplayName("Z4, B1: destroy requires a cancelled zthr; resume after destroy is rejected")
    void destroyRequiresCancel() {
        Zthr zthr = counting("destroy");
        IllegalStateException running = assertThrows(IllegalStateException.class, zthr::destroy);
        assertEquals("zthr destroy must be cancelled before destroy, but it is running", running.getMessage());
        zthr.cancel();
        zthr.destroy();
        assertThrows(IllegalStateException.class, zthr::resume);
    }

    @Test
    @DisplayName("B1: isCancelled and hasWaiters are only for the zthr's own thread, cancel only for others")
    void threadRestrictionsAreEnforced() {
        AtomicReference<Throwable> fromWorker = new AtomicReference<>();
        AtomicBoolean ownCalls = new AtomicBoolean();
        Zthr zthr = track(Zthr.create("own", z -> served.get() < requested.get(), z -> {
            z.isCancelled();
            z.hasWaiters();
            ownCalls.set(true);
            try {
                z.cancel();
            } catch (IllegalStateException e) {
                fromWorker.set(e);
            }
            served.set(requested.get());
        }, ZthrPriority.DEFCLSYSPRI));
        assertThrows(IllegalStateException.class, zthr::isCancelled);
        assertThrows(IllegalStateException.class, zthr::hasWaiters);
        assertTimeoutPreemptively(LIMIT, () -> {
            request();
            zthr.wakeup();
            while (served.get() < 1) {
                Thread.onSpinWait();
            }
        });
        assertTrue(ownCalls.get());
        assertEquals("cancel must not be called from the thread of zthr own", fromWorker.get().getMessage());
    }

    @Test
    @DisplayName("B1: null arguments and a negative timer are rejected with the argument's name")
    void badArgumentsAreRejected() {
        assertEquals("checkFunc must not be null", assertThrows(IllegalArgumentException.class,
                () -> Zthr.create("x", null, z -> { }, ZthrPriority.DEFCLSYSPRI)).getMessage());
        assertEquals("maxSleepNanos must be >= 0 (0 = no timer), was -1", assertThrows(IllegalArgumentException.class,
                () -> Zthr.createTimer("x", z -> false, z -> { }, -1, ZthrPriority.DEFCLSYSPRI)).getMessage());
    }

    @Test
    @DisplayName("#12397: the priority levels map to Java priorities 1, 5 and 10; the policy is described")
    void priorityLevelsMapToJavaPriorities() {
        assertEquals(1, ZthrPriority.MINCLSYSPRI.javaPriority());
        assertEquals(5, ZthrPriority.DEFCLSYSPRI.javaPriority());
        assertEquals(10, ZthrPriority.MAXCLSYSPRI.javaPriority());
        assertTrue(PriorityPolicy.describe().startsWith("zthr priorities: "), PriorityPolicy.describe());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
