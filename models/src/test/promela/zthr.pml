/*
 * zthr.pml: M2, the zthr protocol (OpenZFS module/zfs/zthr.c at zfs-2.1.1; Java org.arcref.zthr.Zthr).
 *
 * Mapping (Promela -> Java -> zfs-2.1.1 C)
 *
 *   Promela                       Java (org.arcref.zthr.Zthr)              zfs-2.1.1 zthr.c
 *   ----------------------------  ---------------------------------------  -----------------------------------------
 *   stateLock                     field stateLock (ReentrantLock)          zthr_state_lock
 *   requestLock                   field requestLock                        zthr_request_lock
 *   cv (mask of waiting pids)     field cv (Condition of stateLock)        zthr_cv
 *   waitCv                        field waitCv                             zthr_wait_cv
 *   thread (worker pid+1, 0=none) field thread                             zthr_thread
 *   cancel                        field cancel                             zthr_cancel
 *   hasWaiters                    field hasWaiters                         zthr_haswaiters
 *   requested, served             the caller's work indicator (tests: requested/served counters), read by the
 *                                 check function, moved to served only by the work function (zthr.h protocol)
 *   proctype worker               procedure() (the worker thread)          zthr_procedure
 *     label check, workSeen       checkSafely() -> runCheck(), its result  t->zthr_checkfunc(...)
 *     label func                  runFuncSafely()                          t->zthr_func(...)
 *     label end_sleep             sleep() (awaitUninterruptibly, no timer) cv_wait_idle
 *     label leave                 the finally block of procedure()         after the while loop
 *   inline startWorker            startWorker() + startThread()            thread_create_named(..., TS_RUN, pri)
 *   inline wakeup                 wakeup()                                 zthr_wakeup
 *   inline cancelZthr             cancel()                                 zthr_cancel
 *   inline resume                 resume()                                 zthr_resume
 *   inline waitCycleDone          waitCycleDone()                          zthr_wait_cycle_done
 *   inline isRunning              isRunning()                              (zthr_isrunning, removed by #8229)
 *   proctype producer             a caller publishing work, then wakeup()  e.g. arc_wait_for_eviction
 *   proctype syncer               a thread that calls wakeup() and then    spa_sync calling zthr_wakeup before
 *                                 completes what the work function waits   the txg that func waits on completes
 *                                 for (txgSynced)                          (#8333's scenario)
 *   proctype waiter               a waitCycleDone() caller                 zthr_wait_cycle_done's caller
 *   proctype canceller            up to two cancel() calls                 spa_export -> zthr_cancel (a stopped
 *                                                                          zthr may be cancelled: a no-op)
 *   proctype resumer              resume() at any moment (PRE_8229:        zthr_resume (a running zthr may be
 *                                 if (!isRunning()) resume())              resumed: a no-op); pre-#8229 guard
 *   init                          Zthr.create(...) (start())               zthr_create
 *
 * Ghost variables (no Java or C counterpart; they state the properties):
 *   stopped  cancel() returned and no resume() has started a worker since (Z1)
 *   waiting  a waitCycleDone() caller is inside the call (Z3)
 *   kicked   a wakeup() found the check true and a live worker; cleared when the work function serves (Z5)
 *
 * Properties. Safety run: the assertions (Z1: no work function runs while `stopped`; after cancel() returns
 * thread == 0 and !cancel; Z4: resume() never meets a pending cancel or, when it starts a worker, a waiter) and
 * invalid end states: every process must finish, except a worker asleep in end_sleep, so a deadlock (#8333) or a
 * waiter that nobody will ever release (Z3) is an error. Liveness under weak fairness: ltl z3, z5 below.
 *
 * Variants (spin -DNAME), each refuted by the tests:
 *   STARTUP_SLEEP_2_1_1     2.1.1's worker sleeps after an idle check although a waiter registered while it was
 *                           starting (the project's documented deviation: Java skips that sleep).
 *   EXIT_KEEPS_WAITERS      2.1.1's exit path: the exiting worker neither clears hasWaiters nor broadcasts waitCv.
 *   WAKEUP_TAKES_REQUEST_LOCK  zthr_wakeup between #8229 and #8333 (61c3391acc..2747f599ff): it takes the request
 *                           lock before the state lock, so it blocks behind a cancel that waits for the worker.
 *   CHECK_WITHOUT_LOCK      the worker runs the check with the state lock released (Java's LostWakeupZthr, the
 *                           lost-wakeup race that holding the lock across check and sleep prevents).
 *   RESUME_ASSERT_2_1_1     zthr_resume's ASSERT(!zthr_haswaiters) where 2.1.1 has it (zthr.c 416): before the
 *                           thread test, so a resume of a running zthr while a waitCycleDone() caller waits fails
 *                           it. Java (and the faithful model) assert it only when a worker is started.
 *   PRE_8229                cancel, resume and the exit path before #8229 (61c3391acc^, #7744): no request lock,
 *                           cancel() clears its own flag after the worker exited, resume() asserts !cancel. The
 *                           waiter and its release on exit, which came later (#8416), are kept as in Zthr.
 *
 * Left out, and why that cannot hide a violation of the properties checked:
 *   - The timer (zthr_create_timer; the evict zthr has none in 2.1.x) and spurious wakeups: both only add
 *     wakeups. Every wait re-tests its predicate (cancel's and waitCycleDone's loops; a worker woken without work
 *     re-checks and sleeps again, releasing waiters as a broadcast would), so an extra wakeup reaches only states a
 *     wakeup() at that moment reaches, and the syncer's and producer's wakeups are tried at every moment. For Z3
 *     and Z5 extra wakeups can only rescue a thread, so leaving them out is the stronger check; a safety violation
 *     needing more wakeups than the model gives is outside the bounds (last item).
 *   - The check and work functions are atomic steps: the check runs under the state lock (nothing else can
 *     interleave with it), and the work function's effect is one atomic store of what it serves. A work function
 *     that polls isCancelled()/hasWaiters() only ends earlier; the blocking one here (waiting for txgSynced) is the
 *     worst case for cancel.
 *   - Thread identity checks (requireOwnThread, requireOtherThread), destroy(), priorities and names: not part of
 *     the protocol's interleavings.
 *   - Java memory model: every zthr field is read and written under the state lock, and the work indicator is a
 *     pair of atomics in Java (the ghost variables are not program state), so the model's sequential consistency
 *     is what the Java code has.
 *   - Bounds: one zthr, one create and at most one resume, one producer (1 unit of work), one syncer, WAITERS
 *     waiters, one canceller (two cancels) and one resumer. Larger bounds (-DWAITERS=2 -DPRODUCERS=2) run with -Dmodels.large.
 *     A violation needing more threads of one kind is not covered; the JCStress zthr scenarios and
 *     ZthrLincheckTest run more invocations of the real code, but neither reaches the start-up window
 *     deterministically (see docs/formal-models.md).
 */

#include "reached.h"

#ifndef WAITERS
#define WAITERS 1
#endif
#ifndef PRODUCERS
#define PRODUCERS 1
#endif

byte stateLock;            /* owner pid + 1, 0 = free */
byte requestLock;
int cv;                    /* bit p set: process p waits on zthr_cv */
int waitCv;                /* bit p set: process p waits on zthr_wait_cv */
byte thread;               /* worker pid + 1, 0 = no worker */
bool cancel;
bool hasWaiters;
byte requested;
byte served;
bool txgSynced;

bool stopped;
byte waiting;
bool kicked;

#define LOCK(l)        atomic { l == 0 -> l = _pid + 1 }
#define UNLOCK(l)      assert(l == _pid + 1); l = 0
#define BROADCAST(c)   c = 0
/* cv_wait: release the lock and join the wait set in one step; return once signalled and the lock is free */
#define WAIT(c, l)     atomic { assert(l == _pid + 1); c = c | (1 << _pid); l = 0 }; \
                       atomic { (c & (1 << _pid)) == 0 && l == 0 -> l = _pid + 1 }

proctype worker() {
    bool workSeen;
    LOCK(stateLock);
    do
    :: cancel -> break
    :: else ->
#ifdef CHECK_WITHOUT_LOCK
        UNLOCK(stateLock);
check:  workSeen = served < requested;
        LOCK(stateLock);
#else
check:  workSeen = served < requested;
#endif
        if
        :: workSeen ->
            UNLOCK(stateLock);
func:       atomic { assert(!stopped); served = requested; kicked = false };
            txgSynced;
            LOCK(stateLock)
        :: else ->
#ifndef STARTUP_SLEEP_2_1_1
            if
            :: hasWaiters -> skip
            :: else ->
#endif
                atomic { cv = cv | (1 << _pid); stateLock = 0 };
end_sleep:      atomic { (cv & (1 << _pid)) == 0 && stateLock == 0 -> stateLock = _pid + 1 }
#ifndef STARTUP_SLEEP_2_1_1
            fi
#endif
        fi;
        if
        :: hasWaiters -> hasWaiters = false; BROADCAST(waitCv)
        :: else -> REACHED
        fi
    od;
leave:
#ifdef PRE_8229
    /* zthr_procedure dropped the lock, then zthr_exit retook it */
    UNLOCK(stateLock);
    LOCK(stateLock);
    thread = 0;
#else
    thread = 0;
    cancel = false;
#endif
    BROADCAST(cv);
#ifndef EXIT_KEEPS_WAITERS
    hasWaiters = false;
    BROADCAST(waitCv);
#endif
    UNLOCK(stateLock)
}

inline startWorker() {
    thread = run worker() + 1
}

inline wakeup() {
#ifdef WAKEUP_TAKES_REQUEST_LOCK
    LOCK(requestLock);
#endif
    LOCK(stateLock);
    atomic {
        if
        :: thread != 0 && !cancel && served < requested -> kicked = true
        :: else -> REACHED
        fi;
        BROADCAST(cv)
    };
    UNLOCK(stateLock);
#ifdef WAKEUP_TAKES_REQUEST_LOCK
    UNLOCK(requestLock)
#endif
}

#ifdef PRE_8229
inline cancelZthr() {
    LOCK(stateLock);
    BROADCAST(cv);
    cancel = true;
    do
    :: thread != 0 -> WAIT(cv, stateLock)
    :: else -> break
    od;
    cancel = false;
    stopped = true;
    UNLOCK(stateLock)
}

inline resume() {
    assert(thread == 0);
    LOCK(stateLock);
    assert(!cancel);
    stopped = false;
    startWorker();
    UNLOCK(stateLock)
}
#else
inline cancelZthr() {
    LOCK(requestLock);
    LOCK(stateLock);
    if
    :: thread != 0 ->
        cancel = true;
        BROADCAST(cv);
        do
        :: thread != 0 -> WAIT(cv, stateLock)
        :: else -> break
        od
    :: else -> REACHED
    fi;
    assert(thread == 0 && !cancel);
    stopped = true;
    UNLOCK(stateLock);
    UNLOCK(requestLock)
}

inline resume() {
    LOCK(requestLock);
    LOCK(stateLock);
    assert(!cancel);
#ifdef RESUME_ASSERT_2_1_1
    /* zthr.c 416: 2.1.1 asserts no waiters before it looks at the thread, so also when resuming a running zthr */
    assert(!hasWaiters);
#endif
    if
    :: thread == 0 ->
        assert(!hasWaiters);
        stopped = false;
        startWorker()
    :: else -> REACHED
    fi;
    UNLOCK(stateLock);
    UNLOCK(requestLock)
}
#endif

inline isRunning(running) {
    LOCK(stateLock);
    running = thread != 0;
    UNLOCK(stateLock)
}

inline waitCycleDone() {
    LOCK(stateLock);
    if
    :: thread != 0 ->
        hasWaiters = true;
        waiting++;
        BROADCAST(cv);
        do
        :: hasWaiters && thread != 0 -> WAIT(waitCv, stateLock)
        :: else -> break
        od;
        waiting--
    :: else -> REACHED
    fi;
    UNLOCK(stateLock)
}

/* Publishes one unit of work and wakes the zthr, or does nothing: the run in which no more work arrives. */
proctype producer() {
    if
    :: requested++;
       wakeup()
    :: REACHED
    fi
}

proctype syncer() {
    wakeup();
    txgSynced = true
}

proctype waiter() {
    waitCycleDone()
}

/* zthr.c's callers may cancel a stopped zthr and resume a running one (both no-ops): the canceller cancels up to
   twice (a loop, so that cancelZthr is expanded once and its option for a stopped zthr is one statement that
   the second cancel reaches), the resumer resumes at any moment, with no isRunning() guard. PRE_8229's resume required a
   stopped zthr (it asserted thread == NULL), so its callers had the guard, and the model keeps it there. */
proctype canceller() {
    byte cancels = 0;
    do
    :: cancels < 2 -> cancelZthr(); cancels++
    :: REACHED; break
    od
}

proctype resumer() {
#ifdef PRE_8229
    bool running;
    isRunning(running);
    if
    :: !running -> resume()
    :: else -> REACHED
    fi
#else
    if
    :: resume()
    :: REACHED
    fi
#endif
}

init {
    byte i;
    atomic {
        LOCK(stateLock);
        startWorker();
        UNLOCK(stateLock);
        i = 0;
        do
        :: i < PRODUCERS -> run producer(); i++
        :: else -> break
        od;
        i = 0;
        do
        :: i < WAITERS -> run waiter(); i++
        :: else -> break
        od;
        run syncer();
        run canceller();
        run resumer()
    }
}

/* Z3: every waitCycleDone() caller returns. */
ltl z3 { [] (waiting > 0 -> <> (waiting == 0)) }
/* Z5: a wakeup given while the check is true leads to a run of the work function, unless a cancel stops it. */
ltl z5 { [] (kicked -> <> (!kicked || stopped)) }
