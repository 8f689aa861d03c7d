/*
 * waiters.pml: model M3, the eviction-waiter protocol of the ARC (zfs-2.1.1 arc.c; Java: org.arcref.arc
 * EvictWaiters, Evictor, ConcurrentArc). Checked by org.arcref.models.waiters.WaitersModelTest.
 *
 * Mapping (Promela -> Java -> zfs-2.1.1 C)
 * ---------------------------------------------------------------------------------------------------------------
 * proctype allocator(i)     ConcurrentArc.allocate -> waitForEviction      arc_get_data_impl -> arc_wait_for_eviction
 *   lvl (NONE/SOME/SEVERE)  ConcurrentArc.overflowLevel                    arc_is_overflowing(B_FALSE)
 *   label some:             EvictWaiters.ensureEvicting (SOME path)        the ARC_OVF_SOME branch (racy, no lock);
 *                           the model keeps 2.1.1's test, then plain store; the Java sets the flag by a compare-
 *                           and-set that cannot overwrite its shut-down value, which
 *                           EvictWaitersTest#nothingSetsEvictNeededAfterShutdown checks, not this model
 *   enqueue (atomic)        EvictWaiters.enqueue + waiterCount             the ARC_OVF_SEVERE branch under arc_evict_lock
 *   label waiting:          Evictor.awaitRelease -> EvictWaiters.await     the cv_wait loop while aw is linked
 *   size++                  arcSize.add(size) in allocate                  arc_space_consume
 * proctype zthr()           Evictor (threaded) on org.arcref.zthr.Zthr     arc_evict_zthr in zthr_procedure
 *   label end_sleeping:     the Zthr worker waiting on its condition       cv_wait(&zthr_cv) when checkfunc is false
 *   needed read in its loop Evictor.Callbacks.check = evictNeeded()        arc_evict_cb_check
 *   label pass:             ConcurrentArc.evictCb + evict                  arc_evict_cb -> arc_evict
 *   visit (k real, g ghost) ConcurrentArc.evictStateImpl                   arc_evict_state_impl (real_evicted)
 *   addEvicted (atomic)     EvictWaiters.addEvicted + releaseReached       the arc_evict_lock block at its end
 *   over                    arcSize.compare(arcC.get()) > 0                aggsum_compare(&arc_size, arc_c) > 0
 *   endPass (atomic)        EvictWaiters.endPass + releaseAtEndOfPass      the arc_evict_lock block of arc_evict_cb
 * proctype closer()         ConcurrentArc.close: Evictor.shutdown,         arc_fini: zthr_cancel(arc_evict_zthr)
 *                           then EvictWaiters.shutdown
 * wake()                    Zthr.wakeup via EvictWaiters' wakeEvictor      zthr_wakeup(arc_evict_zthr)
 * needed                    EvictWaiters.evictNeeded (volatile)            arc_evict_needed
 * ec                        EvictWaiters.evictCount                        arc_evict_count
 * q[], owner[], qlen        EvictWaiters.queue (Waiter.count)              arc_evict_waiters (aew_count)
 * queued[i]                 EvictWaiters.Waiter.queued                     list_link_active(&aw.aew_node)
 * arrival[i], realc        (none: the model's witness for S2: real blocks (none: real_evicted summed, which
 *                           counted, summed from each visit's k alone)     2.1.1 adds to arc_evict_count)
 * AMT(i)                    the waiter's amount (2 x the allocation size)  amount (size * zfs_arc_eviction_pct / 100)
 * evlock                    EvictWaiters' lock                             arc_evict_lock
 * size                      the evictable part of arcSize, in blocks       arc_size (evictable part)
 * ghost                     sizes of MRU_GHOST + MFU_GHOST, in blocks      arc_mru_ghost + arc_mfu_ghost sizes
 * memok, memend             memory.freeMemory() > sysFree / 2              arc_free_memory() > arc_sys_free / 2
 * asleep                    the Zthr worker waiting for a wakeup           the worker in cv_wait(&zthr_cv)
 * cancel, zexited           Zthr.isCancelled, the worker's exit            zthr_iscancelled, zthr_thread == NULL
 * shut                      EvictWaiters.shutDown                          (none: no allocation after arc_fini)
 * locals: n, lvl, last      allocation count, overflow level, tail count   (loop), arc_ovf_level_t, last_count
 *         evicted, visits,  the pass's evicted bytes, visits, a visit's    evicted in arc_evict_cb, sublists,
 *         k, g, j           real and ghost bytes, an index                 real_evicted, bytes_evicted - real
 *
 * Abstraction (what the model leaves out, and why it cannot hide a violation of S1, S2 or L1)
 * - The rest of the ARC reaches this protocol through four values only, and each is a free choice at the step
 *   where the code reads it: the overflow level an allocation reads (any of NONE, SOME, SEVERE: it depends on
 *   the aggsum's lower bound, arc_c, arc_size and the tunables); the end-of-pass aggsum_compare (over or not:
 *   it depends on arc_c, frees and other allocations); what each sublist visit evicts (0..2 real blocks, at most
 *   what was allocated and not yet evicted, and 0..1 ghost block, at most the ghost blocks: nothing, some or
 *   all, whatever the targets, markers, holds, hash-lock misses and batch limits); and whether free memory is
 *   above arc_sys_free / 2 at each release point. Every behaviour of the real values is one of these choices,
 *   so arc_c changes, frees, aggsum bounds and the eviction policy cannot hide a violation. What this bounds is
 *   the number of threads (THREADS), allocations per thread (ALLOCS), sublist visits per pass (NVISITS) and
 *   blocks (SIZE0 evictable at the start, one per allocation); waiter i waits for AMT(i) = 1, 2, 1, ... blocks
 *   (allocations of different sizes: a count read from the wrong end of the list shows only then).
 * - The zthr is a loop of check-then-callback with a sleep that a wakeup ends (model M2 checks the zthr itself,
 *   Z1-Z5); its check and sleep are one step, as zthr_procedure runs them under zthr_state_lock, which
 *   zthr_wakeup takes too. Spurious wakeups (zthr's and waiters') only add iterations whose checks fail.
 * - arc_evict_lock is the variable evlock. The enqueue's section is three steps, so that the zthr's unlocked
 *   check of needed (arc_evict_cb_check) can run between the enqueue's store of needed and its wakeup; the rest
 *   of it and the zthr's and the closer's sections are one atomic step each, which waits for evlock: inside them
 *   nothing unlocked can act on what it reads (the visit writes no unlocked state; at the end of a pass a SOME
 *   path that reads needed between its store and the releases ends in the state it reaches after them).
 * - Left out: arc_need_free / arc_set_need_free (written for the reap zthr, never read by this protocol);
 *   arc_reduce_target_size's wakeup (it sets needed under the lock and wakes, as the SOME path does without it,
 *   which every allocation may take at any step); the shrinker callers of arc_wait_for_eviction (they queue
 *   waiters as the allocators do).
 * - Every run ends (each allocator allocates ALLOCS times; eviction is bounded by what was allocated): a lost
 *   wakeup shows as a final state with a waiter still queued (an invalid end state in the safety run, an
 *   accepting stutter in the L1 run).
 *
 * Properties
 * - S1 (list monotonicity, R8): counts never decrease from head to tail (asserted after every insertion; removal
 *   from the head keeps it).
 * - S2 (release, R9): a waiter is released only (a) by count: arc_evict_count has reached its count, and then
 *   (asserted) free memory allows and the witness realc (real blocks counted, never read by the code) grew by at
 *   least AMT(i) since it arrived; (b) by a pass that ends with needed false; (c) by the close. Asserted at every
 *   release.
 * - Promptness: when a visit's release point ends with free memory allowing, no reached waiter is left at the head.
 * - L1 (ltl L1): every queued waiter is eventually released, under weak fairness.
 *
 * Broken variants (one at a time)
 * - BROKEN_11285: the count is last + AMT (last = the tail's count, or 0), without MAX(last, arc_evict_count)
 *   (the shape of the Java BrokenArcs.waiterCountWithoutMax).
 * - BROKEN_PRE_11397: the code before #11397: VERIFY(last > arc_evict_count) + last + AMT on a non-empty list,
 *   arc_evict_count + AMT on an empty one; the VERIFY fails (the panic of #11285). With NO_VERIFY too (the count
 *   without its VERIFY) S2's witness refutes the early release the count allows.
 * - BROKEN_12279: ghost blocks counted in arc_evict_count (before #12279); S2's witness refutes it.
 * - BROKEN_NO_MEMCHECK: a release by count without the free-memory test.
 * - BROKEN_HEAD_COUNT: last read from the head of the list instead of its tail (needs THREADS = 3).
 * - BROKEN_ONE_RELEASE: a release point releases at most one waiter (promptness; needs THREADS = 3).
 * - BROKEN_WAKE_FIRST: the enqueue wakes the zthr before it sets needed (a lost wakeup through the unlocked check).
 * - BROKEN_3616: the wake condition differs from the stop condition: a pass that ends with eviction no longer
 *   needed releases only the waiters whose count was reached (the per-visit condition), not all of them.
 * - BROKEN_NO_WAKE: a waiter (and the SOME path) sleeps without setting needed or waking the zthr.
 */

#include "reached.h"

#ifndef THREADS
#define THREADS 2
#endif
#ifndef ALLOCS
#define ALLOCS 1
#endif
#ifndef NVISITS
#define NVISITS 2
#endif
#define SIZE0 2
/* the amount waiter i waits for: 1, 2, 1, ... (different allocation sizes, so that a count read from the wrong end
   of the list, or from the wrong base, shows) */
#define AMT(i) ((i) % 2 + 1)
#define NONE 0
#define SOME 1
#define SEVERE 2

bit needed = 0;
byte ec = 0;
byte q[THREADS];
byte owner[THREADS];
byte qlen = 0;
bit queued[THREADS];
byte arrival[THREADS];
byte realc = 0;
byte size = SIZE0;
byte ghost = 0;
bit asleep = 0;
bit cancel = 0;
bit zexited = 0;
bit shut = 0;
bit evlock = 0;

/* zthr_wakeup: ends the zthr's sleep (a broadcast; nothing if it is not asleep) */
inline wake() {
    asleep = 0
}

/* the head of the queue leaves it: released, unlinked, then signalled (EvictWaiters.release) */
inline releaseHead() {
    queued[owner[0]] = 0;
    j = 1;
    do
    :: j < qlen -> q[j - 1] = q[j]; owner[j - 1] = owner[j]; j++
    :: else -> break
    od;
    qlen--;
    q[qlen] = 0;
    owner[qlen] = 0
}

/* releaseAll: every waiter, head first; allowed (S2 b, c) only once needed is false */
inline releaseAll() {
    assert(!needed);
    do
    :: qlen > 0 -> releaseHead()
    :: else -> break
    od
}

/* releaseReached: the waiters whose count arc_evict_count reached, if free memory allows (S2 a) */
inline releaseReached() {
    if
#ifdef BROKEN_NO_MEMCHECK
    :: true ->
#else
    :: memok ->
#endif
        do
        :: qlen > 0 && q[0] <= ec ->
            /* S2 (a), against the witness: free memory allows, and the real blocks counted since the waiter
               arrived cover its amount (realc, not ec: a wrong arc_evict_count must not vouch for itself) */
            assert(memok && realc - arrival[owner[0]] >= AMT(owner[0]));
            releaseHead()
#ifdef BROKEN_ONE_RELEASE
            ; break
#endif
        :: else -> break
        od
#ifndef BROKEN_NO_MEMCHECK
    :: else -> REACHED
#endif
    fi
}

/* promptness: when a release point ends, no waiter it should have released is left at the head */
inline assertPrompt() {
    assert(!(memok && qlen > 0 && q[0] <= ec))
}

/* S1: the queue is sorted by count, head first */
inline assertSorted() {
    j = 1;
    do
    :: j < qlen -> assert(q[j - 1] <= q[j]); j++
    :: else -> break
    od
}

/* EvictWaiters.ensureEvicting inside the lock: set needed and wake unless needed already */
inline ensureEvicting() {
#if defined(BROKEN_WAKE_FIRST)
    if
    :: !needed -> wake(); needed = 1
    :: else -> REACHED
    fi
#elif !defined(BROKEN_NO_WAKE)
    if
    :: !needed -> needed = 1; wake()
    :: else -> REACHED
    fi
#else
    skip
#endif
}

proctype allocator(byte i) {
    byte n = 0;
    byte lvl;
    byte last;
    byte j;
    do
    :: n < ALLOCS ->
        /* arc_is_overflowing: the level of the aggsum's lower bound against arc_c, read without any lock: free.
           SEVERE is listed first so that the depth-first search meets a full list early (a bug in the list shows in
           a few states); the order of a free choice changes no state count */
        if
        :: lvl = SEVERE
        :: lvl = SOME
        :: lvl = NONE
        fi;
        if
        :: lvl == NONE -> skip
        :: lvl == SOME ->
#ifndef BROKEN_NO_WAKE
some:       if
            :: !needed -> needed = 1; wake()
            :: else -> REACHED
            fi
#else
some:       skip
#endif
        :: lvl == SEVERE ->
            /* mutex_enter(&arc_evict_lock), then the tail's count */
            atomic {
                evlock == 0 -> evlock = 1;
                if
#ifdef BROKEN_HEAD_COUNT
                :: qlen > 0 -> last = q[0]
#else
                :: qlen > 0 -> last = q[qlen - 1]
#endif
                :: else -> last = 0
                fi
            };
            /* an empty list: set needed and wake, steps apart, which the zthr's unlocked check can see between */
            if
            :: qlen == 0 -> ensureEvicting()
            :: else -> REACHED
            fi;
            /* the count, the append, mutex_exit: nothing outside the lock reads q, owner or queued of a waiter
               that has not queued yet, so these are one step */
            atomic {
                if
                :: !shut ->
#if defined(BROKEN_11285)
                    q[qlen] = last + AMT(i);
#elif defined(BROKEN_PRE_11397)
                    if
#ifndef NO_VERIFY
                    :: qlen > 0 -> assert(last > ec); q[qlen] = last + AMT(i)
#else
                    :: qlen > 0 -> q[qlen] = last + AMT(i)
#endif
                    :: else -> q[qlen] = ec + AMT(i)
                    fi;
#else
                    q[qlen] = (last > ec -> last : ec) + AMT(i);
#endif
                    owner[qlen] = i;
                    qlen++;
                    queued[i] = 1;
                    arrival[i] = realc;
                    assertSorted()
                :: else -> REACHED
                fi;
                last = 0;
                j = 0;
                evlock = 0
            };
waiting:    (queued[i] == 0)
        fi;
        size++;
        lvl = 0;
        n++
    :: else -> break
    od
}

/* the arc_evict zthr: zthr_procedure with arc_evict_cb_check and arc_evict_cb */
active proctype zthr() {
    byte evicted, visits, k, g, j;
    bit memok, over;
#ifdef BROKEN_3616
    bit memend;
#endif
    do
    :: cancel -> break
    :: atomic { !cancel && !needed -> asleep = 1;
end_sleeping:
        asleep == 0 }
    :: !cancel && needed ->
pass:   evicted = 0;
        visits = 0;
        do
        :: visits < NVISITS ->
            /* arc_evict_state_impl: real blocks k (to a ghost state) and ghost blocks g (destroyed) */
            if
            :: k = 0
            :: size >= 1 -> k = 1
            :: size >= 2 -> k = 2
            fi;
            if
            :: g = 0
            :: ghost >= 1 -> g = 1
            fi;
            atomic { size = size - k; ghost = ghost + k - g };
            evicted = evicted + k + g;
            /* its arc_evict_lock block: arc_evict_count += real_evicted; release by count if memory allows */
            if
            :: memok = 1
            :: memok = 0
            fi;
            atomic {
                evlock == 0;
#ifdef BROKEN_12279
                ec = ec + k + g;
#else
                ec = ec + k;
#endif
                realc = realc + k;
                releaseReached();
                assertPrompt();
                memok = 0;
                j = 0
            };
            k = 0;
            g = 0;
            visits++
        :: else -> break
        od;
        /* the arc_evict_lock block of arc_evict_cb; aggsum_compare(arc_size, arc_c) > 0 is a free choice */
        if
        :: over = 1
        :: over = 0
        fi;
#ifdef BROKEN_3616
        if
        :: memend = 1
        :: memend = 0
        fi;
#endif
        atomic {
            evlock == 0;
            needed = (!cancel && evicted > 0 && over);
            over = 0;
            if
            :: !needed ->
#ifdef BROKEN_3616
                memok = memend;
                releaseReached();
                memok = 0;
                memend = 0
#else
                releaseAll()
#endif
            :: else -> REACHED
            fi;
            j = 0
        };
        evicted = 0;
        visits = 0
    od;
    zexited = 1
}

/* ConcurrentArc.close, or never: zthr_cancel (wake, wait for the exit), then EvictWaiters.shutdown */
active proctype closer() {
    byte j;
    if
    :: REACHED
    :: atomic { cancel = 1; wake() };
        zexited == 1;
        atomic { evlock == 0; shut = 1; needed = 0; releaseAll() }
    fi
}

init {
    byte t = 0;
    atomic {
        do
        :: t < THREADS -> run allocator(t); t++
        :: else -> break
        od
    }
}

#if THREADS == 2
#define ALL_RELEASED ((queued[0] -> <> !queued[0]) && (queued[1] -> <> !queued[1]))
#else
#define ALL_RELEASED ((queued[0] -> <> !queued[0]) && (queued[1] -> <> !queued[1]) && (queued[2] -> <> !queued[2]))
#endif

ltl L1 { [] ALL_RELEASED }
