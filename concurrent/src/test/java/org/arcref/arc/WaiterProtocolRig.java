package org.arcref.arc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zthr.ZthrPriority;

/**
 * The eviction-waiter protocol of {@link ConcurrentArc}, driven one step at a time, for deterministic replays of the
 * counterexamples of model M3 ({@code models/src/test/promela/waiters.pml}): the waiter queue
 * ({@link EvictWaiters}, or the broken queue of one of {@link BrokenArcs}' variants), the evict zthr as
 * {@link Evictor#threaded} runs it on a real {@code Zthr} (check {@code arc_evict_needed}, wakeups from the queue),
 * allocating threads that take the {@code ARC_OVF_SEVERE} path of {@code arc_wait_for_eviction}, and eviction
 * passes whose sublist visits the test dictates: what each visit evicts, whether free memory allows releases then,
 * and whether the cache is still over its target when the pass ends. These are the model's choices; the rig leaves
 * out what the model leaves out ({@code arc_evict} itself, sizes and overflow levels).
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #allocate} returns once the new thread's waiter is queued (or, after {@link #close}, once it was
 *       refused); the thread then waits in {@link Evictor#awaitRelease} as {@code ConcurrentArc} does.</li>
 *   <li>{@link #visit} and {@link #endPass} hand one step to the pass that the evict zthr runs and return once it is
 *       done; if the zthr runs no pass within {@link #STEP_TIMEOUT} (it was not woken, or its check found
 *       {@code arc_evict_needed} false), they fail with an {@link AssertionError} naming L1. The zthr's pass
 *       waits for the test's steps, so it does only what the test dictates.</li>
 *   <li>{@link #assertReturned} fails, naming L1 and dumping the waiting threads, if an allocation has not returned
 *       within the timeout.</li>
 *   <li>{@link #close} is {@code ConcurrentArc.close()}'s thread part and releases every waiter; allocating threads
 *       are daemons, so a waiter that a broken variant loses never keeps the JVM alive.</li>
 * </ul>
 */
public final class WaiterProtocolRig implements AutoCloseable {
    /*
     * Implementation overview. The evict zthr's callback (arc_evict_cb) takes steps from a SynchronousQueue: a
     * Visit sets the memory model (above or below arc_sys_free / 2) and calls addEvicted, as evictStateImpl does
     * at the end of a sublist visit; an End sets the memory model, calls endPass with arc_evict_cb's condition
     * (!cancelled && evicted != 0 && over target) and returns from the callback, after which the zthr re-checks
     * arc_evict_needed. The test's offer of a step succeeds only while a pass is waiting for one, so "the zthr
     * never ran" is an offer refused for STEP_TIMEOUT, while the real queue's zthr takes the step at once. Each
     * step carries a latch that the zthr counts down when the step is done, so that the test's next action
     * happens after it, as in the trail. While cancelled, the callback stops waiting
     * and ends its pass, as a cancelled arc_evict_cb does.
     */

    /** The waiter queues under test: the real one, and those of {@link BrokenArcs}' waiter variants. */
    public enum Variant {
        /** {@link EvictWaiters} as {@link ConcurrentArc} uses it. */
        REAL(EvictWaiters::new),
        /** {@link BrokenArcs#waiterCountWithoutMax} (#11285; model {@code BROKEN_11285}). */
        WAITER_COUNT_WITHOUT_MAX(BrokenArcs.WAITER_COUNT_WITHOUT_MAX),
        /** {@link BrokenArcs#WAKE_CONDITIONS_DIFFER} (#3616; model {@code BROKEN_3616}). */
        WAKE_CONDITIONS_DIFFER(BrokenArcs.WAKE_CONDITIONS_DIFFER),
        /** {@link BrokenArcs#lostWakeup}, a waiter that sleeps without waking the evictor ({@code BROKEN_NO_WAKE}). */
        SLEEPS_WITHOUT_WAKING(BrokenArcs.SLEEPS_WITHOUT_WAKING);

        private final ConcurrentArc.WaitersFactory factory;

        Variant(ConcurrentArc.WaitersFactory factory) {
            this.factory = factory;
        }
    }

    /** How long a step waits for the evict zthr, and {@link #close} for nothing else. */
    public static final Duration STEP_TIMEOUT = Duration.ofSeconds(2);

    private static final long SYS_FREE = 1L << 20;
    private static final long PLENTY = 1L << 30;
    private static final long LOW = SYS_FREE / 4;

    private sealed interface Step permits Visit, End { }

    private record Visit(long realEvicted, boolean memoryAllows, CountDownLatch done) implements Step { }

    private record End(boolean overTarget, boolean memoryAllows, CountDownLatch done) implements Step { }

    /** One allocating thread, between {@code arc_wait_for_eviction}'s queueing and its return. */
    public final class Allocation {
        private final String name;
        private final Thread thread;
        private final CountDownLatch queued = new CountDownLatch(1);
        private volatile EvictWaiters.Waiter waiter;
        private volatile long evictCountAtArrival;
        /** What the allocating thread threw, if anything: it reaches the test through {@link #hasReturned()}. */
        private volatile Throwable failure;

        private Allocation(String name, long amount) {
            this.name = name;
            this.thread = new Thread(() -> {
                try {
                    EvictWaiters.Waiter w = waiters.enqueue(amount);
                    evictCountAtArrival = waiters.evictCount();
                    waiter = w;
                    queued.countDown();
                    evictor.awaitRelease(waiters, w);
                } catch (RuntimeException | Error t) {
                    failure = t;
                    queued.countDown();
                }
            }, name);
            thread.setDaemon(true);
        }

        /** @return whether the waiter is still queued ({@code list_link_active}) */
        public boolean isQueued() {
            return waiters.isQueued(waiter);
        }

        /** @return the waiter's count ({@code aew_count}) */
        public long count() {
            return waiter.count;
        }

        /** @return {@code arc_evict_count} when the waiter had just been queued (the steps are gated, so exact) */
        public long evictCountAtArrival() {
            return evictCountAtArrival;
        }

        /**
         * @return whether the allocating thread has returned from its wait
         * @throws AssertionError if it ended by throwing, which a replay must not mistake for a release
         */
        public boolean hasReturned() {
            if (thread.isAlive()) {
                return false;
            }
            if (failure != null) {
                throw new AssertionError(name + " did not return from its wait but threw " + failure, failure);
            }
            return true;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private final AdjustableMemory memory = new AdjustableMemory(PLENTY);
    private final EvictWaiters waiters;
    private final Evictor evictor;
    private final SynchronousQueue<Step> steps = new SynchronousQueue<>();

    private WaiterProtocolRig(Variant variant) {
        this.waiters = variant.factory.create(memory, SYS_FREE, this::wakeEvictor);
        this.evictor = Evictor.threaded(new Evictor.Callbacks() {
            @Override
            public boolean check() {
                return waiters.evictNeeded();
            }

            @Override
            public void run(BooleanSupplier cancelled) {
                pass(cancelled);
            }

            @Override
            public void died(Error cause) {
                waiters.shutdown();
            }
        }, ZthrPriority.DEFCLSYSPRI);
    }

    /** @return a rig with the evict zthr started (and asleep: nothing is needed yet) */
    public static WaiterProtocolRig start(Variant variant) {
        return new WaiterProtocolRig(variant);
    }

    /**
     * Starts a thread that allocates with a severe overflow: queues a waiter for {@code amount} and waits.
     *
     * @return the allocation, once its waiter is queued
     */
    public Allocation allocate(String name, long amount) {
        Allocation a = new Allocation(name, amount);
        a.thread.start();
        TimedWaits.awaitOrFail(a.queued, STEP_TIMEOUT, name + " did not queue its waiter within " + STEP_TIMEOUT);
        a.hasReturned();
        return a;
    }

    /**
     * An allocation that finds the cache SOME over its target: sets {@code arc_evict_needed} and wakes the evict
     * zthr unless eviction is already needed (the {@code ARC_OVF_SOME} branch of {@code arc_wait_for_eviction}).
     */
    public void someOverflow() {
        waiters.ensureEvicting();
    }

    /** One sublist visit of the pass: {@code realEvicted} bytes evicted, then the waiters it satisfies released. */
    public void visit(long realEvicted, boolean memoryAllows) {
        Visit v = new Visit(realEvicted, memoryAllows, new CountDownLatch(1));
        hand(v);
        TimedWaits.awaitOrFail(v.done(), STEP_TIMEOUT, "the evict zthr did not finish a visit within " + STEP_TIMEOUT);
    }

    /**
     * Ends the pass in progress: {@code arc_evict_needed} is recomputed and, if false, waiters are released.
     *
     * @param overTarget whether {@code aggsum_compare(arc_size, arc_c) > 0} at the end of the pass
     * @param memoryAllows whether free memory is above {@code arc_sys_free / 2} then
     */
    public void endPass(boolean overTarget, boolean memoryAllows) {
        End e = new End(overTarget, memoryAllows, new CountDownLatch(1));
        hand(e);
        TimedWaits.awaitOrFail(e.done(), STEP_TIMEOUT, "the evict zthr did not end its pass within " + STEP_TIMEOUT);
    }

    /** @return {@code arc_evict_needed} */
    public boolean evictNeeded() {
        return waiters.evictNeeded();
    }

    /** @return {@code arc_evict_count} */
    public long evictCount() {
        return waiters.evictCount();
    }

    /** @return the counts of the queued waiters, head first */
    public List<Long> queuedCounts() {
        return waiters.counts();
    }

    /** Fails, naming L1 and showing where each thread waits, unless every allocation returns within the timeout. */
    public void assertReturned(Duration timeout, Allocation... allocations) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Allocation a : allocations) {
            a.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        StringBuilder stuck = new StringBuilder();
        for (Allocation a : allocations) {
            if (!a.hasReturned()) {
                stuck.append("\n  ").append(a.name).append(" (count ").append(a.count()).append(") waits at:");
                for (StackTraceElement f : a.thread.getStackTrace()) {
                    stuck.append("\n    at ").append(f);
                }
            }
        }
        if (!stuck.isEmpty()) {
            throw new PropertyViolation(Property.L1, "an allocation still waits for eviction after "
                    + timeout.toMillis() + " ms; queued counts " + queuedCounts() + ", arc_evict_needed "
                    + evictNeeded() + ", arc_evict_count " + evictCount(), stuck.toString().strip());
        }
    }

    /** {@code ConcurrentArc.close()}'s thread part: cancels the evict zthr, then releases every waiter. */
    @Override
    public void close() {
        evictor.shutdown();
        waiters.shutdown();
    }

    private void wakeEvictor() {
        evictor.wakeup();
    }

    private void hand(Step step) {
        try {
            if (!steps.offer(step, STEP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new PropertyViolation(Property.L1, "the evict zthr ran no pass within "
                        + STEP_TIMEOUT.toMillis() + " ms while waiters with counts " + queuedCounts()
                        + " were queued (arc_evict_needed " + evictNeeded() + "): nobody will release them", "");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while handing a step to the evict zthr", e);
        }
    }


    /** {@code arc_evict_cb} with the test's steps in place of {@code arc_evict}'s sublist visits. */
    private void pass(BooleanSupplier cancelled) {
        long evicted = 0;
        while (!cancelled.getAsBoolean()) {
            Step step;
            try {
                step = steps.poll(10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (step instanceof Visit v) {
                memory.set(v.memoryAllows() ? PLENTY : LOW);
                waiters.addEvicted(v.realEvicted());
                evicted += v.realEvicted();
                v.done().countDown();
            } else if (step instanceof End e) {
                memory.set(e.memoryAllows() ? PLENTY : LOW);
                long total = evicted;
                waiters.endPass(() -> !cancelled.getAsBoolean() && total != 0 && e.overTarget());
                e.done().countDown();
                return;
            }
        }
        waiters.endPass(() -> false);
    }
}
