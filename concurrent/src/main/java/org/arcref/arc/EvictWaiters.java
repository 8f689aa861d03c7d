package org.arcref.arc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.arcref.zfs.ArcArithmetic;
import org.arcref.zfs.MemoryModel;

/**
 * The eviction waiter queue and the globals under {@code arc_evict_lock}: {@code arc_evict_count},
 * {@code arc_evict_needed}, {@code arc_need_free} and {@code arc_evict_waiters}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Waiters are queued in non-decreasing order of count, each count being
 *       {@code MAX(tail count, arc_evict_count) + amount} (the #11397 fix of #11285), and released head first
 *       once {@code arc_evict_count} reaches their count while free memory is above {@code arc_sys_free / 2}
 *       ({@link #addEvicted}), or all at once when a pass ends with eviction no longer needed
 *       ({@link #endPass}) or on {@link #shutdown()} (R8, R9).</li>
 *   <li>Whoever queues a waiter leaves {@code arc_evict_needed} true and has woken the evictor ({@link #enqueue});
 *       {@code arc_evict_needed} becomes false only together with releasing every waiter, under the same lock
 *       hold, so a waiter is never left queued with nobody to release it (L1).</li>
 *   <li>After {@link #shutdown()} nothing sets {@code arc_evict_needed} again, not even the lock-free
 *       {@code ARC_OVF_SOME} path racing it, and nothing wakes the evictor: a wait for an idle evictor ends.</li>
 *   <li>{@link #evictNeeded()} is a volatile read without the lock: the evict zthr's check function uses it, and
 *       must not take {@code arc_evict_lock}, which is ordered before the zthr's state lock (R10).</li>
 * </ul>
 * The class cannot be subclassed outside its package; {@link #waiterCount}, {@link #ensureEvicting} and
 * {@link #releaseAtEndOfPass} are seams for broken test variants (model M3, {@code models/}, refutes each).
 */
class EvictWaiters {
    /*
     * Implementation overview. One ReentrantLock stands for arc_evict_lock; every waiter has its own Condition of
     * it (aew_cv) and a `queued` flag (list_link_active(&aw->aew_node)), both guarded by the lock. A released
     * waiter is unlinked by the releaser before it is signalled, so `await` simply waits until it is unlinked;
     * spurious wakeups loop. The evictor's wakeup (wakeEvictor, which takes the zthr's state lock) runs with the lock
     * held only when a waiter arriving at an empty queue sets arc_evict_needed (enqueue calls ensureEvicting under
     * the lock), which fixes the lock order arc_evict_lock -> zthr_state_lock; the lock-free SOME path
     * (ensureEvicting) and requestEviction call it without the lock. After shutdown no waiter waits: enqueue returns
     * an unqueued waiter.
     *
     * arc_evict_needed is an AtomicInteger with a third value, SHUT_DOWN, that reads as FALSE and is final. The
     * lock-free SOME path sets it only by a compareAndSet from NOT_NEEDED, so it can never overwrite SHUT_DOWN
     * (a plain store, as in 2.1.1, could land after shutdown and leave the flag set with no evictor to clear it);
     * every other write happens under the lock and first checks for SHUT_DOWN.
     */

    /** {@code arc_evict_waiter_t}. */
    static final class Waiter {
        final long count;
        private final Condition cv;
        private boolean queued;

        private Waiter(long count, Condition cv) {
            this.count = count;
            this.cv = cv;
        }
    }

    private static final int NOT_NEEDED = 0;
    private static final int NEEDED = 1;
    private static final int SHUT_DOWN = 2;

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    private final MemoryModel memory;
    private final long sysFree;
    private final Runnable wakeEvictor;
    /** {@code arc_evict_needed}: NEEDED is TRUE; NOT_NEEDED and SHUT_DOWN are FALSE. */
    private final AtomicInteger evictNeeded = new AtomicInteger(NOT_NEEDED);
    private long evictCount;
    private long needFree;

    /**
     * @param memory the memory model ({@code arc_free_memory()})
     * @param sysFree {@code arc_sys_free}
     * @param wakeEvictor {@code zthr_wakeup(arc_evict_zthr)}; called with {@code arc_evict_lock} held from
     *     {@link #enqueue}, without it from the lock-free {@link #ensureEvicting} and from {@link #requestEviction}
     */
    EvictWaiters(MemoryModel memory, long sysFree, Runnable wakeEvictor) {
        this.memory = memory;
        this.sysFree = sysFree;
        this.wakeEvictor = wakeEvictor;
    }

    /** {@code arc_evict_needed}, read without the lock. */
    boolean evictNeeded() {
        return evictNeeded.get() == NEEDED;
    }

    /**
     * Sets {@code arc_evict_needed} and wakes the evictor unless eviction is already needed: the {@code ARC_OVF_SOME}
     * path (without the lock, racy as in 2.1.1: {@code arc_evict_cb} may clear the flag just set) and a waiter
     * arriving at an empty queue (with it); nothing after shutdown. A package-private seam through which tests
     * build the lost-wakeup variant.
     */
    void ensureEvicting() {
        if (evictNeeded.get() == NOT_NEEDED && evictNeeded.compareAndSet(NOT_NEEDED, NEEDED)) {
            wakeEvictor.run();
        }
    }

    /**
     * {@code arc_reduce_target_size}'s wakeup: sets {@code arc_evict_needed} under the lock, then wakes; nothing
     * after shutdown.
     */
    void requestEviction() {
        lock.lock();
        try {
            if (evictNeeded.get() == SHUT_DOWN) {
                return;
            }
            evictNeeded.set(NEEDED);
        } finally {
            lock.unlock();
        }
        wakeEvictor.run();
    }

    /**
     * The {@code ARC_OVF_SEVERE} path of {@code arc_wait_for_eviction}: queues a waiter for
     * {@code MAX(last, arc_evict_count) + amount}, making sure eviction is needed and the evictor woken.
     *
     * @return the waiter, to pass to {@link #await} or {@link #isQueued}; not queued after shutdown
     */
    Waiter enqueue(long amount) {
        lock.lock();
        try {
            long last = 0;
            if (!queue.isEmpty()) {
                last = queue.peekLast().count;
            } else {
                ensureEvicting();
            }
            Waiter w = new Waiter(waiterCount(last, evictCount, amount), lock.newCondition());
            if (evictNeeded.get() != SHUT_DOWN) {
                w.queued = true;
                queue.addLast(w);
                setNeedFree();
            }
            return w;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@code aew_count = MAX(last, arc_evict_count) + amount} ({@link ArcArithmetic#waiterCount}); a package-private
     * seam through which tests build the variant without {@code MAX} (#11285).
     */
    long waiterCount(long last, long evictCount, long amount) {
        return ArcArithmetic.waiterCount(last, evictCount, amount);
    }

    /** Blocks until {@code w} is released (no longer queued). */
    void await(Waiter w) {
        lock.lock();
        try {
            while (w.queued) {
                w.cv.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@code w} is still queued */
    boolean isQueued(Waiter w) {
        lock.lock();
        try {
            return w.queued;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The end of {@code arc_evict_state_impl}: adds {@code realEvicted} to {@code arc_evict_count} and, if free
     * memory is above {@code arc_sys_free / 2}, releases the waiters whose count it reached.
     */
    void addEvicted(long realEvicted) {
        lock.lock();
        try {
            evictCount += realEvicted;
            releaseReached();
            setNeedFree();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The end of {@code arc_evict_cb}: under the lock, {@code arc_evict_needed = stillNeeded}; if that is false,
     * every waiter is released. After shutdown the flag stays FALSE.
     *
     * @param stillNeeded evaluated under {@code arc_evict_lock}
     */
    void endPass(BooleanSupplier stillNeeded) {
        lock.lock();
        try {
            if (evictNeeded.get() == SHUT_DOWN) {
                return;
            }
            boolean needed = stillNeeded.getAsBoolean();
            evictNeeded.set(needed ? NEEDED : NOT_NEEDED);
            if (!needed) {
                releaseAtEndOfPass();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases every waiter, sets {@code arc_evict_needed} FALSE for good and makes later {@link #enqueue} calls
     * return at once; for {@code close()} and for an evictor that died.
     */
    void shutdown() {
        lock.lock();
        try {
            evictNeeded.set(SHUT_DOWN);
            releaseAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return {@code arc_evict_count} */
    long evictCount() {
        lock.lock();
        try {
            return evictCount;
        } finally {
            lock.unlock();
        }
    }

    /** @return {@code arc_need_free} */
    long needFree() {
        lock.lock();
        try {
            return needFree;
        } finally {
            lock.unlock();
        }
    }

    /** @return the counts of the queued waiters, head first */
    List<Long> counts() {
        lock.lock();
        try {
            List<Long> counts = new ArrayList<>();
            queue.forEach(w -> counts.add(w.count));
            return counts;
        } finally {
            lock.unlock();
        }
    }

    /**
     * What a pass that ends eviction releases: every waiter, since nobody will evict for them any more (L1). A
     * package-private seam through which tests build the variant whose wake condition differs from its stop
     * condition (#3616). Requires the lock.
     */
    void releaseAtEndOfPass() {
        releaseAll();
    }

    /**
     * Releases, head first, the waiters whose count {@code arc_evict_count} has reached, if free memory is above
     * {@code arc_sys_free / 2} (the deferral of #11285). Requires the lock.
     */
    final void releaseReached() {
        if (Long.compareUnsigned(memory.freeMemory(), sysFree / 2) > 0) {
            while (!queue.isEmpty() && Long.compareUnsigned(queue.peekFirst().count, evictCount) <= 0) {
                release(queue.removeFirst());
            }
        }
    }

    private void releaseAll() {
        while (!queue.isEmpty()) {
            release(queue.removeFirst());
        }
        setNeedFree();
    }

    private static void release(Waiter w) {
        w.queued = false;
        w.cv.signal();
    }

    /** {@code arc_set_need_free} (fact sheet d.4); requires the lock. */
    private void setNeedFree() {
        needFree = ArcArithmetic.needFree(memory.freeMemory(), sysFree, !queue.isEmpty(),
                queue.isEmpty() ? 0 : queue.peekLast().count, evictCount);
    }
}
