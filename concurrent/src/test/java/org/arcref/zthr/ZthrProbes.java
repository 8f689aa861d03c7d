package org.arcref.zthr;

import java.util.concurrent.locks.ReentrantLock;

/**
 * What a test in another package needs to force an interleaving on a {@link Zthr}: hold its state lock, and tell
 * whether a thread is queued for that lock or parked in one of its condition waits. Replays of model-checker
 * counterexamples use them to order threads at the points where the trail interleaves them. Test sources only.
 */
public final class ZthrProbes {
    private ZthrProbes() {
    }

    /** The zthr's state lock ({@code zthr_state_lock}), for a test that must hold it to order other threads. */
    public static ReentrantLock stateLock(Zthr zthr) {
        return zthr.stateLock;
    }

    /** Whether {@code thread} waits to acquire the zthr's state lock. */
    public static boolean queuedOnStateLock(Zthr zthr, Thread thread) {
        return zthr.stateLock.hasQueuedThread(thread);
    }

    /** Whether {@code thread} waits to acquire the zthr's request lock. */
    public static boolean queuedOnRequestLock(Zthr zthr, Thread thread) {
        return zthr.requestLock.hasQueuedThread(thread);
    }

    /**
     * Whether {@code thread}, which uses no other blocking primitive while it runs zthr code, is parked in a
     * condition wait of the zthr ({@code cv} or {@code waitCv}): waiting, and not queued for the state lock. A
     * thread leaves that state only when signalled.
     */
    public static boolean parkedInConditionWait(Zthr zthr, Thread thread) {
        return thread.getState() == Thread.State.WAITING && !zthr.stateLock.hasQueuedThread(thread)
                && !zthr.requestLock.hasQueuedThread(thread);
    }
}
