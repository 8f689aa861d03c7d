package org.arcref.zthr;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.arcref.zfs.Validate;

/**
 * A restartable background thread that sleeps until told there may be work: the OpenZFS {@code zthr_t}
 * ({@code module/zfs/zthr.c}) with the priority argument of #12397 (zfs-2.1.1). The ARC's evictor is one.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>The worker loops until cancelled: it calls the check function with the state lock held and, when that
 *       returns true, the work function without it; when it returns false it sleeps until {@link #wakeup()}, a
 *       waiter, a cancel, the timer of a {@linkplain #createTimer timer zthr} or a spurious wakeup (Z2, Z5).
 *       It always re-runs the check after waking, so a wakeup given after work was published is never lost.</li>
 *   <li>{@link #wakeup()} takes only the state lock: it never blocks behind a {@link #cancel()} in progress
 *       (Z2). {@link #cancel()} and {@link #resume()} are serialised by a request lock taken before the state lock
 *       (Z4). A cancel is acted on only at a loop boundary: after the work function returns or a sleep ends.</li>
 *   <li>After {@link #cancel()} returns the worker has exited and no check or work runs until {@link #resume()}
 *       (Z1). {@link #waitCycleDone()} returns once the worker has finished an iteration after the call, or has
 *       exited (Z3), even when the worker was still starting at the call (where zthr.c can wait for a later
 *       wakeup; see the implementation overview).</li>
 *   <li>A check or work function that throws is logged and the worker keeps running (a throwing check counts as
 *       "no work"), so callers of {@link #waitCycleDone()} and {@link #cancel()} never wait forever because of
 *       it. If the worker dies of an {@link Error}, it still releases every waiter on its way out.</li>
 *   <li>The worker is a daemon thread named after the zthr, created at the {@link ZthrPriority} given, on create
 *       and on every resume. Linux ignores Java priorities unless the JVM runs with
 *       {@code -XX:ThreadPriorityPolicy=1} (needs root; {@code -XX:JavaPriority1_To_OSPriority=19} maps
 *       {@code minclsyspri} to nice 19): the first zthr to start logs which mode is in effect.</li>
 * </ul>
 * {@link #isCancelled()} and {@link #hasWaiters()} may be called only from the zthr's own thread;
 * {@link #cancel()} and {@link #waitCycleDone()} only from other threads, since they wait for the worker.
 *
 * <p>The class cannot be subclassed outside its package. Its package-private seams ({@link #runCheck()},
 * {@link #startThread}, {@link #sleepsDespiteWaiters()}, {@link #releaseWaitersOnExit()}, and the fields the
 * historical variants reach) let tests build deliberately broken variants and hold a worker at its start
 * ({@code concurrent/src/test/java}, replayed from spin's counterexamples in {@code models/}); production code
 * overrides none of them, and each default costs one call per worker start, idle check or exit.
 */
public class Zthr {
    /*
     * Implementation overview.
     *
     * Locks: `requestLock` (zthr_request_lock) serialises cancel and resume; `stateLock` (zthr_state_lock) guards
     * every field below that is not final; order request -> state. Two conditions of the state lock: `cv`
     * (zthr_cv) wakes a sleeping worker and tells cancellers that the worker exited; `waitCv` (zthr_wait_cv)
     * releases waitCycleDone callers.
     *
     * Worker (zthr_procedure): holds the state lock except while running the work function; each iteration
     * runs the check (under the lock), then either the work (unlocked) or one sleep on `cv`, then releases any
     * waiters. Because the check and the sleep happen under one hold of the state lock, and wakeup signals under
     * it, a wakeup cannot fall between them (the lost-wakeup race). On exit (cancel, or an Error escaping) it
     * clears `thread`, `cancel` and `hasWaiters` and signals both conditions, so no caller waits on a dead worker.
     *
     * One deviation from zthr.c (spin's model M2 shows the hang, docs/formal-models.md): a waiter that arrives while
     * a new worker is still starting (after create or resume, before its first check) signals `cv` before anyone
     * waits on it. zthr.c's worker then checks, finds no work and sleeps, and the waiter waits until some later
     * wakeup, for ever if none comes. Here the worker skips the sleep when a waiter is already registered at that
     * point, so the iteration ends and releases it. This cannot change when work runs: the check has just run under
     * the same lock hold.
     *
     * Invariants: Z1 thread != null exactly while a worker runs; cancel is true only while a canceller waits for
     * a live worker. Z2 check under the state lock, work without it; wakeup takes only the state lock. Z3 a
     * waiter is released by the end of an iteration or the worker's exit. Z4 request -> state. Z5 untimed
     * zthrs sleep until signalled; timed ones re-check at least every sleepTimeoutNanos.
     *
     * Interrupts: the worker thread is private to this class and never interrupted by it; an interrupt during a
     * timed sleep is treated as a spurious wakeup. Callers' waits are uninterruptible, as in the kernel.
     */

    private static final System.Logger LOG = System.getLogger(Zthr.class.getName());

    private final String name;
    private final ZthrCheckFunc checkFunc;
    private final ZthrFunc func;
    private final ZthrPriority priority;
    /** {@code zthr_sleep_timeout}: 0 sleeps until signalled. */
    private final long sleepTimeoutNanos;

    /** {@code zthr_request_lock}; package-private for the test variants of #8333 and #8229. */
    final ReentrantLock requestLock = new ReentrantLock();
    /** {@code zthr_state_lock}. */
    final ReentrantLock stateLock = new ReentrantLock();
    final Condition cv = stateLock.newCondition();
    private final Condition waitCv = stateLock.newCondition();

    /** {@code zthr_thread}; package-private, as {@link #cancel} and {@link #cv}, for the test variant of #8229. */
    Thread thread;
    /** {@code zthr_cancel}. */
    boolean cancel;
    /** {@code zthr_haswaiters}. */
    private boolean hasWaiters;
    private boolean destroyed;

    Zthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func, long sleepTimeoutNanos, ZthrPriority priority) {
        this.name = Validate.notNull("name", name);
        this.checkFunc = Validate.notNull("checkFunc", checkFunc);
        this.func = Validate.notNull("func", func);
        this.priority = Validate.notNull("priority", priority);
        if (sleepTimeoutNanos < 0) {
            throw new IllegalArgumentException("maxSleepNanos must be >= 0 (0 = no timer), was " + sleepTimeoutNanos);
        }
        this.sleepTimeoutNanos = sleepTimeoutNanos;
    }

    /**
     * {@code zthr_create(name, checkfunc, func, arg, pri)}: creates the zthr and starts its worker, which runs the
     * check at once.
     *
     * @throws IllegalArgumentException if an argument is null
     */
    public static Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        return createTimer(name, checkFunc, func, 0, priority);
    }

    /**
     * {@code zthr_create_timer(name, checkfunc, func, arg, max_sleep, pri)}: like {@link #create} but the worker
     * re-checks at least every {@code maxSleepNanos} even without a wakeup; 0 means no timer.
     *
     * @throws IllegalArgumentException if an argument is null or {@code maxSleepNanos < 0}
     */
    public static Zthr createTimer(String name, ZthrCheckFunc checkFunc, ZthrFunc func, long maxSleepNanos,
                                   ZthrPriority priority) {
        return new Zthr(name, checkFunc, func, maxSleepNanos, priority).start();
    }

    /** Starts the first worker; for the factories of this class and of test variants. */
    final Zthr start() {
        stateLock.lock();
        try {
            startWorker();
        } finally {
            stateLock.unlock();
        }
        return this;
    }

    /** {@code thread_create_named} at {@code zthr_pri}; state lock held. */
    final void startWorker() {
        PriorityPolicy.logOnce();
        Thread worker = new Thread(this::procedure, name);
        worker.setDaemon(true);
        worker.setPriority(priority.javaPriority());
        thread = worker;
        startThread(worker);
    }

    /**
     * Lets a new worker run ({@code TS_RUN}); state lock held. A seam: a test may hold the start to open the window
     * in which the worker is starting (it exists, but has not yet taken the state lock).
     */
    void startThread(Thread worker) {
        worker.start();
    }

    /** {@code zthr_procedure}: the worker loop (fact sheet b.3). */
    private void procedure() {
        stateLock.lock();
        try {
            while (!cancel) {
                if (checkSafely()) {
                    stateLock.unlock();
                    try {
                        runFuncSafely();
                    } finally {
                        stateLock.lock();
                    }
                } else if (!hasWaiters || sleepsDespiteWaiters()) {
                    sleep();
                }
                if (hasWaiters) {
                    hasWaiters = false;
                    waitCv.signalAll();
                }
            }
        } finally {
            thread = null;
            cancel = false;
            cv.signalAll();
            releaseWaitersOnExit();
            stateLock.unlock();
        }
    }

    /**
     * Whether an idle check is followed by a sleep even when a waiter registered while the worker was starting:
     * false, the deviation of the implementation overview. A seam for the variant with zfs-2.1.1's behaviour.
     */
    boolean sleepsDespiteWaiters() {
        return false;
    }

    /**
     * Releases every {@link #waitCycleDone()} caller as the worker exits (Z3); state lock held. zthr.c's exit path
     * does not, and a waiter that registered while a cancelled worker was starting then waits for ever. A seam for
     * the variant with zfs-2.1.1's exit path.
     */
    void releaseWaitersOnExit() {
        hasWaiters = false;
        waitCv.signalAll();
    }

    private boolean checkSafely() {
        try {
            return runCheck();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "zthr " + name + ": check function threw; treated as no work", e);
            return false;
        }
    }

    /**
     * Calls the check function; the state lock is held. A seam for tests; production code never overrides it.
     */
    boolean runCheck() {
        return checkFunc.check(this);
    }

    private void runFuncSafely() {
        try {
            func.run(this);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "zthr " + name + ": work function threw; continuing", e);
        }
    }

    /** {@code cv_wait_idle} or {@code cv_timedwait_idle_hires} on {@code zthr_cv}; state lock held. */
    private void sleep() {
        if (sleepTimeoutNanos == 0) {
            cv.awaitUninterruptibly();
            return;
        }
        try {
            cv.awaitNanos(sleepTimeoutNanos);
        } catch (InterruptedException e) {
            LOG.log(System.Logger.Level.DEBUG, "zthr " + name + ": interrupted sleep treated as a spurious wakeup");
        }
    }

    /**
     * {@code zthr_wakeup}: wakes the worker if it sleeps, so that it re-runs the check. Takes only the state lock,
     * so it never blocks behind a cancel in progress; does nothing if the worker is busy, stopped or starting (a
     * busy or starting worker re-checks anyway).
     */
    public void wakeup() {
        stateLock.lock();
        try {
            cv.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * {@code zthr_cancel}: asks the worker to stop and waits until it has exited (Z1); does nothing if it is
     * stopped. The worker notices the request only after its current check, work or sleep; long work should poll
     * {@link #isCancelled()}.
     *
     * @throws IllegalStateException if called from the zthr's own thread (it would wait for itself)
     */
    public void cancel() {
        requestLock.lock();
        try {
            stateLock.lock();
            try {
                requireOtherThread("cancel");
                if (thread != null) {
                    cancel = true;
                    cv.signalAll();
                    while (thread != null) {
                        cv.awaitUninterruptibly();
                    }
                }
                assert !cancel : "Z1: the exiting worker resets the cancel request";
            } finally {
                stateLock.unlock();
            }
        } finally {
            requestLock.unlock();
        }
    }

    /**
     * {@code zthr_resume}: starts a new worker, at the zthr's priority and with its name, if none runs; does
     * nothing otherwise. ZFS asserts {@code !haswaiters} unconditionally; here it is checked (by assertion) only
     * when a worker is started, since a waiter may legitimately wait on a running zthr.
     *
     * @throws IllegalStateException if the zthr was destroyed
     */
    public void resume() {
        requestLock.lock();
        try {
            stateLock.lock();
            try {
                if (destroyed) {
                    throw new IllegalStateException("zthr " + name + " was destroyed; resume is not allowed");
                }
                assert !cancel : "Z4: no cancel can be pending while the request lock is held";
                if (thread == null) {
                    assert !hasWaiters : "Z4: resume requires no waiters on a stopped zthr";
                    startWorker();
                }
            } finally {
                stateLock.unlock();
            }
        } finally {
            requestLock.unlock();
        }
    }

    /**
     * {@code zthr_destroy}: releases the zthr for good; it must be cancelled first. Later resumes are rejected.
     *
     * @throws IllegalStateException if a worker is running
     */
    public void destroy() {
        stateLock.lock();
        try {
            if (thread != null) {
                throw new IllegalStateException("zthr " + name + " must be cancelled before destroy, but it is running");
            }
            destroyed = true;
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * {@code zthr_wait_cycle_done}: if a worker runs, wakes it and waits until it finishes the iteration in
     * progress (its current work, or a sleep that this call ends) or exits (Z3).
     *
     * @throws IllegalStateException if called from the zthr's own thread (it would wait for itself)
     */
    public void waitCycleDone() {
        stateLock.lock();
        try {
            requireOtherThread("waitCycleDone");
            if (thread != null) {
                hasWaiters = true;
                cv.signalAll();
                while (hasWaiters && thread != null) {
                    waitCv.awaitUninterruptibly();
                }
            }
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * {@code zthr_iscancelled}: whether a cancel is pending; for the work function to end early. Takes only the
     * state lock, so it cannot deadlock with a cancel that holds the request lock.
     *
     * @throws IllegalStateException if called from any thread but the zthr's own
     */
    public boolean isCancelled() {
        stateLock.lock();
        try {
            requireOwnThread("isCancelled");
            return cancel;
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * {@code zthr_has_waiters}: whether a {@link #waitCycleDone()} caller waits; the work function may end early.
     *
     * @throws IllegalStateException if called from any thread but the zthr's own
     */
    public boolean hasWaiters() {
        stateLock.lock();
        try {
            requireOwnThread("hasWaiters");
            return hasWaiters;
        } finally {
            stateLock.unlock();
        }
    }

    /**
     * Whether a worker currently exists ({@code zthr_thread != NULL}). Not a ZFS function (its
     * {@code zthr_isrunning} was removed by #8229); for tests and monitoring. The answer may be stale on return.
     */
    public boolean isRunning() {
        stateLock.lock();
        try {
            return thread != null;
        } finally {
            stateLock.unlock();
        }
    }

    /** The name given at creation ({@code zthr_name}), also the worker thread's name. */
    public String name() {
        return name;
    }

    /** The priority given at creation ({@code zthr_pri}). */
    public ZthrPriority priority() {
        return priority;
    }

    /** The timer ({@code zthr_sleep_timeout}) in nanoseconds; 0 when the zthr has none. */
    public long maxSleepNanos() {
        return sleepTimeoutNanos;
    }

    private void requireOwnThread(String operation) {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException(operation + " may only be called from the thread of zthr " + name
                    + ", was called from " + Thread.currentThread().getName());
        }
    }

    private void requireOtherThread(String operation) {
        if (Thread.currentThread() == thread) {
            throw new IllegalStateException(operation + " must not be called from the thread of zthr " + name);
        }
    }

    @Override
    public String toString() {
        return "Zthr[" + name + ", " + priority + (sleepTimeoutNanos == 0 ? "" : ", timer "
                + TimeUnit.NANOSECONDS.toMillis(sleepTimeoutNanos) + " ms") + "]";
    }
}
