package org.arcref.arc;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrPriority;

/**
 * Who runs {@code arc_evict_cb} and when: the {@code arc_evict} zthr, or (deterministic mode) the calling thread.
 *
 * <ul>
 *   <li><b>Threaded</b>: a {@link Zthr} whose check function is {@code arc_evict_cb_check} (reads
 *       {@code arc_evict_needed} without {@code arc_evict_lock}) and whose work is {@code arc_evict_cb};
 *       {@link #wakeup()} is {@code zthr_wakeup}; a waiter blocks on its condition until released.</li>
 *   <li><b>Stepped</b>: no thread; {@link #step()} runs one iteration (check, then callback) on the caller, and a
 *       waiter runs iterations itself until it is released, as the sequential spec does. Iterations are
 *       serialised by a lock, so the mode stays safe (though no longer exact) with several calling threads.</li>
 * </ul>
 */
final class Evictor {

    /** The two halves of the evict zthr's loop. */
    interface Callbacks {
        /** {@code arc_evict_cb_check}. */
        boolean check();

        /** {@code arc_evict_cb}; {@code cancelled} is {@code zthr_iscancelled(arc_evict_zthr)}. */
        void run(BooleanSupplier cancelled);
    }

    private final Callbacks callbacks;
    private final Zthr zthr;
    private final ReentrantLock stepLock;
    private volatile boolean shutDown;

    private Evictor(Callbacks callbacks, ZthrPriority priority) {
        this.callbacks = callbacks;
        if (priority == null) {
            this.zthr = null;
            this.stepLock = new ReentrantLock();
        } else {
            this.stepLock = null;
            this.zthr = Zthr.create("arc_evict", z -> callbacks.check(), z -> callbacks.run(z::isCancelled),
                    priority);
        }
    }

    /** @return an evictor running on its own zthr at {@code priority} */
    static Evictor threaded(Callbacks callbacks, ZthrPriority priority) {
        return new Evictor(callbacks, priority);
    }

    /** @return an evictor stepped on the calling threads */
    static Evictor stepped(Callbacks callbacks) {
        return new Evictor(callbacks, null);
    }

    boolean isStepped() {
        return zthr == null;
    }

    /** {@code zthr_wakeup(arc_evict_zthr)}; nothing to do when stepped (the caller steps). */
    void wakeup() {
        if (zthr != null) {
            zthr.wakeup();
        }
    }

    /**
     * Stepped mode: one iteration of the zthr loop on the calling thread.
     *
     * @return whether the callback ran
     */
    boolean step() {
        stepLock.lock();
        try {
            if (!callbacks.check()) {
                return false;
            }
            callbacks.run(() -> shutDown);
            return true;
        } finally {
            stepLock.unlock();
        }
    }

    /**
     * Waits until {@code w} is released: threaded, on its condition; stepped, by running iterations.
     *
     * @throws IllegalStateException (stepped) if the waiter is queued while eviction is not needed: nobody would
     *     ever release it (a lost wakeup, property L1)
     */
    void awaitRelease(EvictWaiters waiters, EvictWaiters.Waiter w) {
        if (zthr != null) {
            waiters.await(w);
            return;
        }
        while (waiters.isQueued(w)) {
            if (!step()) {
                throw new IllegalStateException("lost wakeup: an eviction waiter for count " + w.count
                        + " is queued but arc_evict_needed is FALSE (property L1)");
            }
        }
    }

    /** Threaded: {@code zthr_wait_cycle_done}, waking the zthr and waiting for the iteration in progress. */
    void awaitCycle() {
        zthr.waitCycleDone();
    }

    /** Cancels the zthr (its last callback sees the cancel) and destroys it; stepped, marks later steps. */
    void shutdown() {
        shutDown = true;
        if (zthr != null) {
            zthr.cancel();
            zthr.destroy();
        }
    }
}
