package org.arcref.arc;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.arcref.zfs.LostWakeup;
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
 *       serialised by a lock, so the mode stays safe (though no longer exact) with several calling threads: a
 *       waiter tests whether it is still queued and runs the next iteration under one hold of that lock, so
 *       another thread's iteration cannot release it in between and leave it stepping an evictor with no work.
 *       An {@link Error} thrown by the callback propagates to the caller that stepped.</li>
 * </ul>
 *
 * <h2>Death of the evict zthr</h2>
 * An {@link Error} thrown by {@code arc_evict_cb} (a failed assertion, say) ends the zthr's thread; a
 * {@link RuntimeException} is logged by the {@link Zthr} and the loop goes on. Nothing restarts a dead evictor:
 * the Error means its invariants no longer hold. Before the thread exits, the evictor records the Error and calls
 * {@link Callbacks#died}, which releases every waiter; from then on {@link #requireAlive()} throws an
 * {@link IllegalStateException} that names the death and carries the Error as its cause, for every waiter that
 * returns and every later allocation.
 */
final class Evictor {

    /** The two halves of the evict zthr's loop, and what its death must do. */
    interface Callbacks {
        /** {@code arc_evict_cb_check}. */
        boolean check();

        /** {@code arc_evict_cb}; {@code cancelled} is {@code zthr_iscancelled(arc_evict_zthr)}. */
        void run(BooleanSupplier cancelled);

        /** The evict zthr is dying of {@code cause} (called on its thread): release every waiter. */
        void died(Error cause);
    }

    private final Callbacks callbacks;
    private final Zthr zthr;
    private final ReentrantLock stepLock;
    private volatile boolean shutDown;
    /** The Error that killed the evict zthr, or null while it lives. */
    private volatile Error deathCause;

    private Evictor(Callbacks callbacks, ZthrPriority priority) {
        this.callbacks = callbacks;
        if (priority == null) {
            this.zthr = null;
            this.stepLock = new ReentrantLock();
        } else {
            this.stepLock = null;
            this.zthr = Zthr.create("arc_evict", this::checkOrDie, this::runOrDie, priority);
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

    /** The evict zthr's check: {@code arc_evict_cb_check}, recording an Error that ends the thread. */
    private boolean checkOrDie(Zthr z) {
        try {
            return callbacks.check();
        } catch (Error e) {
            throw die(e);
        }
    }

    /** The evict zthr's work: {@code arc_evict_cb}, recording an Error that ends the thread. */
    private void runOrDie(Zthr z) {
        try {
            callbacks.run(z::isCancelled);
        } catch (Error e) {
            throw die(e);
        }
    }

    /** Records why the evict zthr is dying and releases its waiters; returns the Error for the caller to rethrow. */
    private Error die(Error cause) {
        deathCause = cause;
        callbacks.died(cause);
        return cause;
    }

    /**
     * @throws IllegalStateException naming the death, with the Error as its cause, if the evict zthr died
     */
    void requireAlive() {
        Error cause = deathCause;
        if (cause != null) {
            throw new IllegalStateException("the evict zthr arc_evict died of " + cause + "; nothing can be evicted,"
                    + " so no allocation may wait (property L1): close the cache", cause);
        }
    }

    /**
     * Waits until {@code w} is released: threaded, on its condition; stepped, by running iterations.
     *
     * @throws IllegalStateException (stepped) if the waiter is queued while eviction is not needed: nobody would
     *     ever release it (a lost wakeup, property L1); (threaded) if the evict zthr died ({@link #requireAlive})
     */
    void awaitRelease(EvictWaiters waiters, EvictWaiters.Waiter w) {
        if (zthr != null) {
            waiters.await(w);
            requireAlive();
            return;
        }
        stepLock.lock();
        try {
            while (waiters.isQueued(w)) {
                if (!step()) {
                    if (!waiters.isQueued(w)) { // released by close(), which does not take the step lock
                        return;
                    }
                    throw LostWakeup.violation(w.count);
                }
            }
        } finally {
            stepLock.unlock();
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
