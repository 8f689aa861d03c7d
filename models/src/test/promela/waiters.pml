/*
 * waiters.pml: model M3, the eviction-waiter protocol of the ARC (zfs-2.1.1 arc.c; Java: org.arcref.arc
 * EvictWaiters, Evictor, ConcurrentArc). Checked by org.arcref.models.waiters.WaitersModelTest.
 *
 * Mapping (Promela -> Java -> zfs-2.1.1 C)
 * ---------------------------------------------------------------------------------------------------------------
 * proctype allocator(i)     ConcurrentArc.allocate -> waitForEviction      arc_get_data_impl -> arc_wait_for_eviction
 *   lvl (NONE/SOME/SEVERE)  ConcurrentArc.overflowLevel                    arc_is_overflowing(B_FALSE)
 *   label some:             EvictWaiters.ensureEvicting (SOME path)        the ARC_OVF_SOME branch (racy, no lock)
 *   enqueue (atomic)        EvictWaiters.enqueue + waiterCount             the ARC_OVF_SEVERE branch under arc_evict_lock
 *   label waiting:          Evictor.awaitRelease -> EvictWaiters.await     the cv_wait loop while aw is linked
 *   size++                  arcSize.add(size) in allocate                  arc_space_consume
 * proctype zthr()           Evictor (threaded) on org.arcref.zthr.Zthr     arc_evict_zthr in zthr_procedure
 *   label end_sleeping:       Zthr worker waiting on its condition           cv_wait(&zthr_cv) when checkfunc is false
 *   needed read in its loop Evictor.Callbacks.check = evictNeeded()        arc_evict_cb_check
 *   label pass:             ConcurrentArc.evictCb + evict                  arc_evict_cb -> arc_evict
 *   visit (k real, g ghost) ConcurrentArc.evictStateImpl                   arc_evict_state_impl (real_evicted)
 *   addEvicted (atomic)     EvictWaiters.addEvicted + releaseReached       the arc_evict_lock block at its end
 *   endPass (atomic)        EvictWaiters.endPass + releaseAtEndOfPass      the arc_evict_lock block of arc_evict_cb
 * proctype closer()         ConcurrentArc.close: Evictor.shutdown,         arc_fini: zthr_cancel(arc_evict_zthr)
 *                           then EvictWaiters.shutdown
 * wake()                    Zthr.wakeup via EvictWaiters' wakeEvictor     zthr_wakeup(arc_evict_zthr)
 * needed                    EvictWaiters.evictNeeded (volatile)           arc_evict_needed
 * ec                        EvictWaiters.evictCount                       arc_evict_count
 * q[], owner[], qlen        EvictWaiters.queue (Waiter.count)             arc_evict_waiters (aew_count)
 * queued[i]                 EvictWaiters.Waiter.queued                    list_link_active(&aw.aew_node)
 * arrival[i]                (none: the model's witness for S2)            (none)
 * size, C                   arcSize (AggSum), arcC                         arc_size, arc_c
 * ghost                     sizes of MRU_GHOST + MFU_GHOST                 arc_mru_ghost/arc_mfu_ghost sizes
 * memok (chosen per visit)  memory.freeMemory() > sysFree / 2             arc_free_memory() > arc_sys_free / 2
 * cancel, zexited           Zthr.isCancelled, the zthr's exit             zthr_cancel, zthr_thread == NULL
 * shut                      EvictWaiters.shutDown                          (arc_fini; no waiter is queued after it)
 *
 * Abstraction (what the model leaves out, and why it cannot hide a violation of S1, S2 or L1)
 * - Bytes are counted in blocks: each allocation adds one block, a waiter asks for AMOUNT = 2 blocks
 *   (zfs_arc_eviction_pct = 200), and the overflow levels are size <= C (NONE), C + 1 (SOME), >= C + 2 (SEVERE),
 *   the shape of 2.1.1's levels with overflow = 2 blocks. The protocol compares counts only with each other.
 * - arc_evict() is abstracted to NVISITS sublist visits, each evicting any 0..2 real blocks (at most the size)
 *   and any 0..1 ghost block (at most the ghost size): nothing, some or all. This over-approximates the real
 *   eviction (targets, markers, hash-lock misses, holds, batch limits only select among these outcomes), so a
 *   violation of the real protocol is a behaviour of the model. Its bound (two visits per pass) is a bound.
 * - arc_size is exact (the aggsum is model M1): the lower bound read by arc_is_overflowing is taken as the value
 *   read at that step. A stale read is still modelled, since the level is read one step before it is acted on.
 * - The zthr is a loop of check-then-callback with a sleep that a wakeup ends (model M2 checks the zthr itself,
 *   Z1-Z5); its check and sleep are one step, as zthr_procedure runs them under zthr_state_lock, which
 *   zthr_wakeup takes too. Spurious wakeups (zthr's and waiters') only add iterations whose checks fail.
 * - arc_evict_lock is not a variable: each of its critical sections is one atomic step. Outside the lock the
 *   other steps read only needed (written once per section) and size (not written under it), so no step can
 *   tell a section's inside from its ends.
 * - Left out: arc_need_free / arc_set_need_free (written for the reap zthr, never read by this protocol);
 *   arc_reduce_target_size's wakeup and changes of arc_c (they set needed and wake, or move the end-of-pass test,
 *   which the model already takes at every value its size reaches); frees (they only lower arc_size, so a pass
 *   ends sooner and releases everyone; they touch neither needed nor the queue); the FreeBSD/Linux shrinker
 *   callers of arc_wait_for_eviction (they queue waiters as the allocators do).
 * - Each allocator allocates ALLOCS times and the initial size is C + 2 (already severe, as after a target
 *   reduction), so every run ends: a lost wakeup shows as a final state with a waiter still queued (an invalid
 *   end state in the safety run, an accepting stutter in the L1 run).
 *
 * Properties
 * - S1 (list monotonicity, R8): counts never decrease from head to tail (asserted after every insertion; removal
 *   from the head keeps it).
 * - S2 (release, R9): a waiter is released only (a) by count: arc_evict_count has reached its count, free memory
 *   allows, and at least AMOUNT blocks were evicted since it arrived; (b) by a pass that ends with needed false;
 *   (c) by the close. Asserted at every release.
 * - L1 (ltl L1): every queued waiter is eventually released, under weak fairness.
 *
 * Broken variants (one at a time)
 * - BROKEN_11285: the count is last + AMOUNT (last = the tail's count, or 0), without MAX(last, arc_evict_count).
 * - BROKEN_3616: the wake condition differs from the stop condition: a pass that ends with eviction no longer
 *   needed releases only the waiters whose count was reached (the per-visit condition), not all of them.
 * - BROKEN_NO_WAKE: a waiter (and the SOME path) sleeps without setting needed or waking the zthr.
 */

#ifndef THREADS
#define THREADS 2
#endif
#ifndef ALLOCS
#define ALLOCS 1
#endif
#ifndef NVISITS
#define NVISITS 2
#endif
#define C 2
#define AMOUNT 2
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
byte size = C + 2;
byte ghost = 0;
bit asleep = 0;
bit cancel = 0;
bit zexited = 0;
bit shut = 0;
byte finished = 0;

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
    :: memok ->
        do
        :: qlen > 0 && q[0] <= ec ->
            assert(ec - arrival[owner[0]] >= AMOUNT);
            releaseHead()
        :: else -> break
        od
    :: else -> skip
    fi
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
#ifndef BROKEN_NO_WAKE
    if
    :: !needed -> needed = 1; wake()
    :: else -> skip
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
        /* arc_is_overflowing: the level of the aggsum's lower bound, read without any lock, which is at most
           the level of the exact size */
        if
        :: lvl = NONE
        :: size >= C + 1 -> lvl = SOME
        :: size >= C + 2 -> lvl = SEVERE
        fi;
        if
        :: lvl == NONE -> skip
        :: lvl == SOME ->
#ifndef BROKEN_NO_WAKE
some:       if
            :: !needed -> needed = 1; wake()
            :: else -> skip
            fi
#else
some:       skip
#endif
        :: lvl == SEVERE ->
            atomic {
                if
                :: qlen > 0 -> last = q[qlen - 1]
                :: else -> last = 0; ensureEvicting()
                fi;
                if
                :: !shut ->
#ifdef BROKEN_11285
                    q[qlen] = last + AMOUNT;
#else
                    q[qlen] = (last > ec -> last : ec) + AMOUNT;
#endif
                    owner[qlen] = i;
                    qlen++;
                    queued[i] = 1;
                    arrival[i] = ec;
                    assertSorted()
                :: else -> skip
                fi;
                last = 0;
                j = 0
            };
waiting:    (queued[i] == 0)
        fi;
        size++;
        lvl = 0;
        n++
    :: else -> break
    od;
    finished++
}

/* the arc_evict zthr: zthr_procedure with arc_evict_cb_check and arc_evict_cb */
active proctype zthr() {
    byte evicted, visits, k, g, j;
    bit memok;
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
                ec = ec + k;
                releaseReached();
                memok = 0;
                j = 0
            };
            k = 0;
            g = 0;
            visits++
        :: else -> break
        od;
        /* the arc_evict_lock block of arc_evict_cb */
#ifdef BROKEN_3616
        if
        :: memend = 1
        :: memend = 0
        fi;
#endif
        atomic {
            needed = (!cancel && evicted > 0 && size > C);
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
            :: else -> skip
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
    :: skip
    :: atomic { cancel = 1; wake() };
        zexited == 1;
        atomic { shut = 1; needed = 0; releaseAll() }
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
