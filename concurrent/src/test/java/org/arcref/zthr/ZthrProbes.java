package org.arcref.zthr;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a test in another package needs to force an interleaving on a {@link Zthr}: hold its state lock, and tell
 * whether a thread is queued for that lock or parked in one of its condition waits. Replays of model-checker
 * counterexamples use them to order threads at the points where the trail interleaves them. Test sources only.
 */
public final class ZthrProbes {
    private ZthrProbes() {
    }

    /** The real zthr (no timer) on the given locks instead of {@code ReentrantLock}s, for a run that substitutes them. */
    public static Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, Lock requestLock, Lock stateLock) {
        return new Zthr(name, checkFunc, func, 0, ZthrPriority.DEFCLSYSPRI, requestLock, stateLock).start();
    }

    /** The zthr's state lock ({@code zthr_state_lock}), for a test that must hold it to order other threads. */
    public static ReentrantLock stateLock(Zthr zthr) {
        return (ReentrantLock) zthr.stateLock;
    }

    /** Whether {@code thread} waits to acquire the zthr's state lock. */
    public static boolean queuedOnStateLock(Zthr zthr, Thread thread) {
        return ((ReentrantLock) zthr.stateLock).hasQueuedThread(thread);
    }

    /** Whether {@code thread} waits to acquire the zthr's request lock. */
    public static boolean queuedOnRequestLock(Zthr zthr, Thread thread) {
        return ((ReentrantLock) zthr.requestLock).hasQueuedThread(thread);
    }

    /**
     * Whether {@code thread}, which uses no other blocking primitive while it runs zthr code, is parked in a
     * condition wait of the zthr ({@code cv} or {@code waitCv}): waiting, and not queued for the state lock. A
     * thread leaves that state only when signalled.
     */
    public static boolean parkedInConditionWait(Zthr zthr, Thread thread) {
        return thread.getState() == Thread.State.WAITING && !((ReentrantLock) zthr.stateLock).hasQueuedThread(thread)
                && !((ReentrantLock) zthr.requestLock).hasQueuedThread(thread);
    }
}
