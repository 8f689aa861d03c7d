package org.arcref.property;

/**
 * The named properties whose violation a checker reports ({@code docs/architecture.md}, "Named properties", states
 * each and says where it is checked). A {@link PropertyViolation} carries one of them, so a caller
 * that classifies a failure reads {@link PropertyViolation#property()} and never the message text.
 */
public enum Property {
    /** A1: for every aggsum bucket, {@code |asc_delta| <= asc_borrowed}. */
    A1,
    /** A2: under {@code as_lock} the bounds are the value minus and plus what the buckets borrowed. */
    A2,
    /** A3: {@code as_lower_bound == as_upper_bound} exactly when every bucket is empty. */
    A3,
    /** A4: {@code aggsum_value} returns the exact value and leaves both bounds at it with every bucket empty. */
    A4,
    /** A5: the lock-free bounds are valid for every add that completed before the load. */
    A5,
    /** A6: the slow path's new borrow, as 2.1.1 computes it. */
    A6,
    /** A7: the lock order {@code as_lock -> asc_lock}; the fast path takes only {@code asc_lock}. */
    A7,
    /** R1: {@code arc_c_min <= arc_c <= arc_c_max}. */
    R1,
    /** R2: {@code (int64_t)arc_p >= 0}, and with the O2 fix {@code arc_p <= arc_c}. */
    R2,
    /** R3: {@code arc_size} is the resident data: header data plus private copies. */
    R3,
    /** R4: each state's {@code arcs_size} and {@code arcs_esize} are the sums over its headers. */
    R4,
    /** R5: a header is on its state's list iff it is unreferenced and not anonymous. */
    R5,
    /** R6: ghost headers hold no data and no reference; MRU and MFU headers hold data. */
    R6,
    /** R7: an eviction pass reaches its targets unless eviction is blocked. */
    R7,
    /** R8: {@code arc_evict_count} never decreases and the waiters are sorted by {@code aew_count}. */
    R8,
    /** R9: a waiter is released only when enough was evicted or nothing more can be; none is left queued. */
    R9,
    /** R10: the lock order. */
    R10,
    /** R11: the promotion rules between the states. */
    R11,
    /** R12: {@code arc_c} grows only in {@code arc_adapt}, by at most the allocation. */
    R12,
    /** R13: a free-running evictor goes back to sleep. */
    R13,
    /** R22-1 (zfs-2.2.0's engine): {@code arc_c_min <= arc_c <= arc_c_max}. */
    R22_1,
    /**
     * R22-2: with {@code EVICT_ADJ_OVERFLOW_17255}, {@code arc_meta}, {@code arc_pd} and {@code arc_pm} lie in
     * {@code [0, 2^32]}; without it, a fraction outside is zfs-2.2.0's quirk, witnessed rather than violated.
     */
    R22_2,
    /**
     * R22-3: {@code arc_size} is the resident data, and the sum of the per-type sizes of anon, MRU, MFU and
     * uncached.
     */
    R22_3,
    /** R22-4: each state's {@code arcs_size[type]} and {@code arcs_esize[type]} are the sums over its headers. */
    R22_4,
    /** R22-5: a header is on its state's list iff it is unreferenced and not anonymous. */
    R22_5,
    /** R22-6: ghost headers hold no data and no reference; MRU and MFU headers hold data. */
    R22_6,
    /** R22-7: the evictor's last pass reaches {@code arc_c} unless eviction is blocked. */
    R22_7,
    /** R22-8: {@code arc_evict_count} never decreases; waiters sorted by {@code aew_count}, none left queued. */
    R22_8,
    /** R22-9: {@code arc_c} grows only in {@code arc_adapt}, by at most its steps, and falls only by a reduction. */
    R22_9,
    /** R22-10: a free-running evictor goes back to sleep. */
    R22_10,
    /** R22-11: after the evictor's last pass each ghost list holds at most half of the other three live classes. */
    R22_11,
    /** R22-12: only a ghost hit adds to {@code arcs_hits}, its header's size; the fractions move only in a pass. */
    R22_12,
    /** R22-13: a block keeps its type while it has a header. */
    R22_13,
    /**
     * R22-14: an uncached header is held or a prefetch; an uncached read that misses leaves its key uncached or
     * without a header.
     */
    R22_14,
    /** C1: the canonical ARC's directory equals that of DBL(2c), with its size bounds. */
    C1,
    /** B1: bad input is rejected with an exception naming the argument and the rule, and the state is unchanged. */
    B1,
    /** D1: the deterministic concurrent ARC gives the spec's result and snapshot after every operation. */
    D1,
    /** D2: in the default mode the concurrent ARC differs from the spec only by what the aggsum slack explains. */
    D2,
    /** L1: a thread waiting for eviction returns; an eviction waiter is never lost. */
    L1,
    /** N1: no wrong data and no lost bytes. */
    N1,
    /** G1: the spec's conformance output equals that of the real zfs-2.1.1 {@code arc.c}. */
    G1,
    /**
     * X1: on a small configuration every reachable state of the spec is visited, and R1–R13, B1 and D1 hold at every
     * transition; a violation of X1 itself is a quirk's effect seen with the quirk's fix applied.
     */
    X1,
    /** Z1: {@code zthr_thread != NULL} exactly while a worker exists; after {@code zthr_cancel()} returns there is none. */
    Z1,
    /** Z2: the check function always runs with {@code zthr_state_lock} held, the work function never. */
    Z2,
    /**
     * Z3: {@code zthr_wait_cycle_done} returns only once the iteration in progress at the call has ended (its work
     * function returned, or its sleep, which the call ends, is over) or the worker has exited; every work call begun
     * before the wait has then returned.
     */
    Z3,
    /** Z4: cancel and resume are serialised by {@code zthr_request_lock}. */
    Z4,
    /** Z5: without a timer the worker runs only after a wakeup; with one it re-checks at least every timeout. */
    Z5
}
