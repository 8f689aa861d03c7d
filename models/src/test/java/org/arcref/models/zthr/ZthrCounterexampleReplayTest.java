package org.arcref.models.zthr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.arcref.zthr.ZthrProbes.parkedInConditionWait;
import static org.arcref.zthr.ZthrProbes.queuedOnRequestLock;
import static org.arcref.zthr.ZthrProbes.queuedOnStateLock;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zthr.ExitKeepsWaitersZthr;
import org.arcref.zthr.HeldStartZthr;
import org.arcref.zthr.LostWakeupZthr;
import org.arcref.zthr.Pre8229Zthr;
import org.arcref.zthr.RequestLockedWakeupZthr;
import org.arcref.zthr.StartupSleepZthr;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrCheckFunc;
import org.arcref.zthr.ZthrFunc;
import org.arcref.zthr.ZthrPriority;
import org.arcref.zthr.ZthrProbes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The counterexamples spin finds in {@code zthr.pml} ({@link ZthrModelTest}), replayed on the Java code: each
 * choreography forces the trail's interleaving with latches and the {@link ZthrProbes} of the state and request locks,
 * so it is deterministic; the broken Java variant fails it with the property's name, and the real {@link Zthr} passes
 * the same choreography. The model and the code thus agree on each bug.
 *
 * <p>A hang is recognised, not timed out: each replay names the state in which every thread involved is parked in a
 * condition wait or a lock queue that no remaining thread will signal, and fails as soon as it sees that state twice
 * 50 ms apart (the threads and their stacks are in the message). A bound of {@value #LIMIT_SECONDS} s per step and
 * the class {@link Timeout} only catch a choreography that stops matching the code. What a helper thread or the
 * zthr's callbacks throw reaches the test ({@link #replay}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZthrCounterexampleReplayTest {
    private static final long LIMIT_SECONDS = 20;

    /** Creates a zthr whose workers are held at their start: {@link HeldStartZthr} or one of its variants. */
    private interface HeldFactory {
        HeldStartZthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func);
    }

    /** {@link Zthr#create} or a variant's factory of the same signature. */
    private interface Factory {
        Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority);
    }

    // ---- Z3, zfs-2.1.1's start-up (zthr.pml -DSTARTUP_SLEEP_2_1_1) ----

    /**
     * The trail: a worker is created (held before its first lock); the waiter takes the state lock, sees a worker,
     * sets hasWaiters, broadcasts to nobody and waits; the worker takes the lock, its check finds no work, and
     * 2.1.1's worker sleeps: the waiter waits for a wakeup that never comes.
     */
    private static void replayStartupRace(HeldFactory factory, Helpers helpers) {
        HeldStartZthr zthr = factory.create("replay-startup", helpers.check(z -> false), helpers.func(z -> { }));
        Thread waiter = helpers.start("replay-startup-waiter", zthr::waitCycleDone);
        awaitStep("the waiter registered and waits", () -> parkedInConditionWait(zthr, waiter));
        Thread worker = zthr.startHeldWorker();
        try {
            awaitEndOrHang(Property.Z3, "the worker sleeps and the waiter that registered while it was starting waits"
                    + " for ever", waiter, () -> parkedInConditionWait(zthr, worker)
                    && parkedInConditionWait(zthr, waiter));
        } finally {
            zthr.wakeup();
            join(waiter);
            zthr.cancel();
        }
    }

    @Test
    @DisplayName("Z3 start-up race: the real Zthr releases a waiter that registered while the worker was starting")
    void z3StartupRaceRealZthrReleasesTheWaiter() {
        replay(helpers -> replayStartupRace(HeldStartZthr::create, helpers));
    }

    @Test
    @DisplayName("Z3 start-up race: zfs-2.1.1's worker sleeps and the waiter hangs, as spin's trail shows")
    void z3StartupRaceZfs211HangsTheWaiter() {
        PropertyViolation hang = assertThrows(PropertyViolation.class,
                () -> replay(helpers -> replayStartupRace(StartupSleepZthr::create, helpers)));
        assertEquals(Property.Z3, hang.property(), hang.getMessage());
    }

    // ---- Z3, zfs-2.1.1's exit path (zthr.pml -DEXIT_KEEPS_WAITERS) ----

    /**
     * The trail: a worker is created (held); the canceller sets cancel and waits for it; the waiter registers and
     * waits; the worker takes the lock, sees cancel before any iteration, and exits. 2.1.1's exit wakes the canceller
     * only, and the waiter waits for ever. (In the model the canceller comes first; here too.)
     */
    private static void replayExitWithWaiter(HeldFactory factory, Helpers helpers) {
        HeldStartZthr zthr = factory.create("replay-exit", helpers.check(z -> false), helpers.func(z -> { }));
        Thread canceller = helpers.start("replay-exit-canceller", zthr::cancel);
        awaitStep("the canceller set cancel and waits for the worker", () -> parkedInConditionWait(zthr, canceller));
        Thread waiter = helpers.start("replay-exit-waiter", zthr::waitCycleDone);
        awaitStep("the waiter registered and waits", () -> parkedInConditionWait(zthr, waiter));
        Thread worker = zthr.startHeldWorker();
        awaitEndOrHang(Property.Z3, "the worker exited on the cancel without releasing the waiter, which waits for ever",
                waiter, () -> !worker.isAlive() && !canceller.isAlive() && parkedInConditionWait(zthr, waiter));
        join(canceller);
        assertFalse(zthr.isRunning(), "Z1: no worker after cancel returned");
    }

    @Test
    @DisplayName("Z3 exit path: the real Zthr's exiting worker releases a waiter that registered during start-up")
    void z3ExitPathRealZthrReleasesTheWaiter() {
        replay(helpers -> replayExitWithWaiter(HeldStartZthr::create, helpers));
    }

    @Test
    @DisplayName("Z3 exit path: zfs-2.1.1's exit leaves that waiter waiting for ever, as spin's trail shows")
    void z3ExitPathZfs211StrandsTheWaiter() {
        // the stranded waiter stays parked (a daemon thread): nothing can release it, which is the bug
        PropertyViolation hang = assertThrows(PropertyViolation.class,
                () -> replay(helpers -> replayExitWithWaiter(ExitKeepsWaitersZthr::create, helpers)));
        assertEquals(Property.Z3, hang.property(), hang.getMessage());
    }

    // ---- Z2, Z4: #8333, wakeup taking the request lock (zthr.pml -DWAKEUP_TAKES_REQUEST_LOCK) ----

    /**
     * The trail: work is published; the worker's check sees it and the work function starts, then waits for the
     * txg (here a latch) that the syncer completes after its wakeup; the canceller takes the request lock, sets
     * cancel and waits for the worker; the syncer's wakeup then blocks on the request lock. Canceller, worker and
     * syncer wait for each other.
     */
    private static void replayWakeupDuringCancel(Factory factory, Helpers helpers) {
        AtomicBoolean pending = new AtomicBoolean(true);
        CountDownLatch inFunc = new CountDownLatch(1);
        CountDownLatch txgSynced = new CountDownLatch(1);
        Zthr zthr = factory.create("replay-8333", helpers.check(z -> pending.get()), helpers.func(z -> {
            pending.set(false);
            inFunc.countDown();
            awaitLatch(txgSynced);
        }), ZthrPriority.DEFCLSYSPRI);
        awaitStep("the work function runs", () -> inFunc.getCount() == 0);
        Thread canceller = helpers.start("replay-8333-canceller", zthr::cancel);
        awaitStep("the canceller holds the request lock and waits for the worker",
                () -> parkedInConditionWait(zthr, canceller));
        Thread syncer = helpers.start("replay-8333-syncer", () -> {
            zthr.wakeup();
            txgSynced.countDown();
        });
        try {
            awaitEndOrHang(Property.Z2, "wakeup blocks behind the cancel (#8333): the syncer waits for the request lock,"
                    + " the canceller for the worker, the worker's work function for the syncer", canceller,
                    () -> queuedOnRequestLock(zthr, syncer) && parkedInConditionWait(zthr, canceller)
                            && txgSynced.getCount() == 1);
        } finally {
            txgSynced.countDown();
            join(canceller);
            join(syncer);
        }
        assertFalse(zthr.isRunning(), "Z1: no worker after cancel returned");
    }

    @Test
    @DisplayName("Z2 #8333: the real Zthr's wakeup does not block behind a cancel waiting for the work function")
    void z2WakeupDuringCancelRealZthrDoesNotDeadlock() {
        replay(helpers -> replayWakeupDuringCancel(Zthr::create, helpers));
    }

    @Test
    @DisplayName("Z2 #8333: a wakeup that takes the request lock deadlocks with cancel, as spin's trail shows")
    void z2WakeupTakingTheRequestLockDeadlocks() {
        PropertyViolation hang = assertThrows(PropertyViolation.class,
                () -> replay(helpers -> replayWakeupDuringCancel(RequestLockedWakeupZthr::create, helpers)));
        assertEquals(Property.Z2, hang.property(), hang.getMessage());
    }

    // ---- Z4: #7744, cancel and resume before #8229 (zthr.pml -DPRE_8229) ----

    /**
     * The trail: the canceller sets cancel and waits; the worker's work function returns, the worker exits and
     * wakes the canceller; before the canceller gets the state lock back, the resumer gets it, finds no worker and
     * a cancel still in progress. Here the test holds the state lock while the worker and then the resumer queue
     * for it, so the lock's FIFO queue hands it to the worker, then to the resumer, and only then to the canceller
     * (which the worker's signal queues last). The real resume waits on the request lock instead, until the cancel
     * has returned.
     */
    private static void replayResumeDuringCancel(Factory factory, Helpers helpers) {
        AtomicBoolean pending = new AtomicBoolean(true);
        CountDownLatch cancelSeen = new CountDownLatch(1);
        CountDownLatch funcMayReturn = new CountDownLatch(1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        Zthr zthr = factory.create("replay-7744", helpers.check(z -> pending.get()), helpers.func(z -> {
            pending.set(false);
            worker.set(Thread.currentThread());
            awaitStep("the cancel is in progress", z::isCancelled);
            cancelSeen.countDown();
            awaitLatch(funcMayReturn);
        }), ZthrPriority.DEFCLSYSPRI);
        // The trail cancels a running work function: a cancel before the worker's first check would end the worker
        // without running it.
        awaitStep("the work function runs", () -> worker.get() != null);
        Thread canceller = helpers.start("replay-7744-canceller", zthr::cancel);
        awaitStep("the work function saw the cancel", () -> cancelSeen.getCount() == 0);
        ReentrantLock stateLock = ZthrProbes.stateLock(zthr);
        Thread resumer;
        stateLock.lock();
        try {
            funcMayReturn.countDown();
            awaitStep("the worker queues for the state lock", () -> queuedOnStateLock(zthr, worker.get()));
            resumer = helpers.start("replay-7744-resumer", zthr::resume);
            awaitStep("the resumer waits for a lock", () -> resumer.getState() == Thread.State.WAITING);
        } finally {
            stateLock.unlock();
        }
        join(resumer);
        join(canceller);
        try {
            if (helpers.failures.isEmpty()) { // a failed resume (the pre-#8229 resume's own Z4 check) is replay()'s
                assertTrue(zthr.isRunning(), "the resume after the completed cancel started a worker");
            }
        } finally {
            zthr.cancel();
        }
    }

    @Test
    @DisplayName("Z4 #7744: the real Zthr serialises resume after cancel; the resume starts a new worker")
    void z4ResumeDuringCancelRealZthrIsSerialised() {
        replay(helpers -> replayResumeDuringCancel(Zthr::create, helpers));
    }

    @Test
    @DisplayName("Z4 #7744: before #8229, resume meets the cancel in progress and fails, as spin's trail shows")
    void z4ResumeDuringCancelPre8229FailsItsAssertion() {
        PropertyViolation failure = assertThrows(PropertyViolation.class,
                () -> replay(helpers -> replayResumeDuringCancel(Pre8229Zthr::create, helpers)));
        assertEquals(Property.Z4, failure.property(), failure.getMessage());
        assertEquals("(#7744) resume found a cancel in progress", failure.detail());
    }

    // ---- Z5: the lost wakeup (zthr.pml -DCHECK_WITHOUT_LOCK, LostWakeupZthr) ----

    /**
     * The trail: the worker's check reads "no work"; the producer publishes work and wakes the zthr; the worker
     * goes to sleep. With the check under the state lock the producer's wakeup waits for the lock, so it comes after
     * the worker is asleep and wakes it; with the lock released around the check it comes before, and is lost.
     */
    private static void replayWakeupDuringCheck(Factory factory, Helpers helpers) {
        AtomicInteger requested = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        AtomicBoolean firstCheck = new AtomicBoolean(true);
        CountDownLatch checked = new CountDownLatch(1);
        AtomicReference<Thread> producer = new AtomicReference<>();
        AtomicReference<Thread> worker = new AtomicReference<>();
        Zthr zthr = factory.create("replay-lost-wakeup", helpers.check(z -> {
            boolean work = served.get() < requested.get();
            if (firstCheck.getAndSet(false)) {
                worker.set(Thread.currentThread());
                checked.countDown();
                awaitStep("the producer's wakeup returned or waits for the state lock", () -> producer.get() != null
                        && (!producer.get().isAlive() || queuedOnStateLock(z, producer.get())));
            }
            return work;
        }), helpers.func(z -> served.set(requested.get())), ZthrPriority.DEFCLSYSPRI);
        awaitStep("the worker's first check read 'no work'", () -> checked.getCount() == 0);
        producer.set(helpers.start("replay-lost-wakeup-producer", () -> {
            requested.incrementAndGet();
            zthr.wakeup();
        }));
        try {
            join(producer.get());
            awaitOrHang(Property.Z5, "the wakeup came between the check and the sleep and was lost: work is pending and"
                    + " the worker sleeps", () -> served.get() == 1,
                    () -> served.get() < requested.get() && parkedInConditionWait(zthr, worker.get()));
        } finally {
            zthr.wakeup();
            zthr.cancel();
        }
    }

    @Test
    @DisplayName("Z5 lost wakeup: the real Zthr serves work published while its check ran")
    void z5WakeupDuringCheckRealZthrServesTheWork() {
        replay(helpers -> replayWakeupDuringCheck(Zthr::create, helpers));
    }

    @Test
    @DisplayName("Z5 lost wakeup: LostWakeupZthr sleeps with the work pending, as spin's trail shows")
    void z5WakeupDuringCheckLostWakeupZthrLosesIt() {
        PropertyViolation lost = assertThrows(PropertyViolation.class,
                () -> replay(helpers -> replayWakeupDuringCheck(LostWakeupZthr::create, helpers)));
        assertEquals(Property.Z5, lost.property(), lost.getMessage());
    }

    // ---- helpers ----

    /**
     * The threads of one replay besides the test's own: the helpers it starts and the zthr's worker running its
     * callbacks. What any of them throws is recorded and reaches the test ({@link #replay}); otherwise a failed step in
     * a helper would be lost with its thread, or logged by the zthr, and the replay would pass or hang.
     */
    private static final class Helpers {
        private final Queue<Throwable> failures = new ConcurrentLinkedQueue<>();

        /** Starts a daemon thread; what it throws is recorded. */
        Thread start(String name, Runnable body) {
            Thread thread = new Thread(() -> {
                try {
                    body.run();
                } catch (RuntimeException | Error t) {
                    failures.add(t);
                }
            }, name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        }

        /** A check function whose throws are recorded (and still thrown, for the zthr to handle). */
        ZthrCheckFunc check(ZthrCheckFunc check) {
            return z -> {
                try {
                    return check.check(z);
                } catch (RuntimeException | Error t) {
                    failures.add(t);
                    throw t;
                }
            };
        }

        /** A work function whose throws are recorded (and still thrown, for the zthr to handle). */
        ZthrFunc func(ZthrFunc func) {
            return z -> {
                try {
                    func.run(z);
                } catch (RuntimeException | Error t) {
                    failures.add(t);
                    throw t;
                }
            };
        }
    }

    /**
     * Runs a replay with its {@link Helpers}: if the replay throws, what the helpers threw is attached to it
     * (suppressed); if it returns, the first thing a helper threw is thrown, a {@link PropertyViolation} as it is (a
     * variant's own check), anything else as an {@link AssertionError} naming it.
     */
    static void replay(Consumer<Helpers> replay) {
        Helpers helpers = new Helpers();
        try {
            replay.accept(helpers);
        } catch (RuntimeException | Error e) {
            helpers.failures.forEach(e::addSuppressed);
            throw e;
        }
        Throwable first = helpers.failures.peek();
        if (first instanceof PropertyViolation violation) {
            throw violation;
        }
        if (first != null) {
            AssertionError failed = new AssertionError("a thread of the replay failed: " + first, first);
            helpers.failures.stream().skip(1).forEach(failed::addSuppressed);
            throw failed;
        }
    }

    @Test
    @DisplayName("a helper thread's failure reaches the test, after the replay or attached to its own failure")
    void helperFailuresReachTheTest() {
        AssertionError lost = assertThrows(AssertionError.class, () -> replay(helpers -> {
            Thread t = helpers.start("replay-failing-helper", () -> {
                throw new IllegalStateException("step not reached");
            });
            join(t);
        }));
        assertTrue(lost.getMessage().contains("step not reached"), lost.getMessage());
        PropertyViolation hang = assertThrows(PropertyViolation.class, () -> replay(helpers -> {
            join(helpers.start("replay-failing-helper", () -> {
                throw new IllegalStateException("step not reached");
            }));
            throw new PropertyViolation(Property.Z3, "a hang", "");
        }));
        assertEquals(1, hang.getSuppressed().length, "the helper's failure is attached to the replay's");
    }

    /** Waits until a step of the choreography is reached; a step never reached means the choreography is wrong. */
    private static void awaitStep(String step, BooleanSupplier reached) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        while (!reached.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replay never reached the step '" + step + "'\n" + dump());
            }
            pause(1);
        }
    }

    /**
     * Waits until {@code subject} ends (the property holds) or the hang {@code hung} describes is seen twice 50 ms
     * apart (it is violated: every thread involved waits for a signal no thread will send).
     */
    private static void awaitEndOrHang(Property property, String hang, Thread subject, BooleanSupplier hung) {
        awaitOrHang(property, hang, () -> !subject.isAlive(), hung);
    }

    /** Waits until {@code done} (the property holds) or the hang {@code hung} describes is seen twice 50 ms apart. */
    private static void awaitOrHang(Property property, String hang, BooleanSupplier done, BooleanSupplier hung) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
        while (!done.getAsBoolean()) {
            if (hung.getAsBoolean()) {
                pause(50);
                if (!done.getAsBoolean() && hung.getAsBoolean()) {
                    throw new PropertyViolation(property, hang, dump());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new PropertyViolation(property, "the replay did not settle within " + LIMIT_SECONDS + " s",
                        dump());
            }
            pause(1);
        }
    }

    private static void join(Thread thread) {
        awaitStep(thread.getName() + " returns", () -> !thread.isAlive());
    }

    private static void awaitLatch(CountDownLatch latch) {
        awaitStep("latch released", () -> latch.getCount() == 0);
    }

    private static void pause(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("replay interrupted", e);
        }
    }

    /** The replay's threads (all named replay-...) with their states and stacks. */
    private static String dump() {
        StringBuilder text = new StringBuilder("threads:");
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            if (e.getKey().getName().startsWith("replay-")) {
                text.append("\n  ").append(e.getKey().getName()).append(' ').append(e.getKey().getState());
                for (StackTraceElement frame : e.getValue()) {
                    text.append("\n      at ").append(frame);
                }
            }
        }
        return text.toString();
    }
}
