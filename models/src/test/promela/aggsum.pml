/*
 * aggsum.pml: model M1, the aggsum protocol of OpenZFS 2.1.1 (module/zfs/aggsum.c) as org.arcref.aggsum.AggSum
 * implements it. Checked by org.arcref.models.aggsum.AggSumModelTest; docs/formal-models.md, section "M1 aggsum".
 *
 * What stands for what
 *
 *   Promela                        Java (org.arcref.aggsum)                         zfs-2.1.1 aggsum.c
 *   -----------------------------  -----------------------------------------------  ------------------------------
 *   lower, upper                   AggSum.lowerBound, AggSum.upperBound (volatile)  as_lower_bound, as_upper_bound
 *   corelock                       the monitor of AggSum.core                       as_lock
 *   bdelta[b], bborrowed[b]        AggSumBucket.delta, AggSumBucket.borrowed        asc_delta, asc_borrowed
 *   blocked[b]                     AggSumBucket.lock()/unlock() (spin lock)         asc_lock
 *   proctype worker(t)             one thread calling the public methods            a CPU calling the API
 *   inline add, label fastPath     AggSum.add, withinBorrow                         aggsum_add, fast path
 *     its steps, in this order:    lockedBucketOfCurrentThread (bucket.lock()),     mutex_enter(asc_lock), the
 *                                  newDelta = bucket.delta + delta, withinBorrow     test of asc_delta + delta
 *                                  (reads borrowed), bucket.delta = newDelta,       against asc_borrowed,
 *                                  bucket.unlock()                                  asc_delta += delta, mutex_exit
 *   label slowPath                 AggSum.borrowAndAdd, AggSumLayout.borrowChange,  aggsum_add, after "borrow:"
 *                                  AggSum.storeBoundsAndUnlock
 *     its steps, in this order:    synchronized (core) with old = bucket.borrowed,  mutex_enter(as_lock) with the
 *                                  bucket.lock(), total = delta + bucket.delta,     read of asc_borrowed,
 *                                  bucket.delta = 0, bucket.borrowed = old +        mutex_enter(asc_lock), delta +=
 *                                  borrow, the two stores, bucket.unlock(), the     asc_delta, asc_delta = 0,
 *                                  end of synchronized                              asc_borrowed += borrow, unlock,
 *                                                                                   stores (see STORE_AFTER_UNLOCK)
 *   label slowStore                AggSum.storeBoundsAndUnlock (its two stores)     the two atomic_store_64 calls
 *   inline readLower, readUpper    AggSum.lowerBound(), upperBound()                aggsum_lower/upper_bound
 *   inline value                   AggSum.value(), flushLocked(.., false)           aggsum_value
 *   inline compare, label locked   AggSum.compare(), compareLocked, flushLocked     aggsum_compare
 *   inline flushBucket             one iteration of AggSum.flushLocked's loop       the loop body of both
 *     its steps, in this order:    the test borrowed == 0, bucket.lock(), lb +=     the test asc_borrowed != 0,
 *                                  delta + borrowed, ub += delta - borrowed,        mutex_enter(asc_lock), lb +=,
 *                                  delta = 0, borrowed = 0, bucket.unlock()         ub +=, the two zeroings, exit
 *   BORROW(d) = |d| << SHIFT       AggSumLayout.borrowFor: |d| << (4 + shift)       |delta| << (aggsum_borrow_shift
 *                                                                                     + as_bucketshift)
 *   select bucket in add           AggSum.lockedBucketOfCurrentThread (any bucket)  CPU_SEQID_UNSTABLE >> shift
 *   ULT, UGT                       Long.compareUnsigned                             uint64_t comparisons
 *   init                           the test that starts the threads, then checks    -
 *   done[t], started[t], vset,     ghosts: no counterpart; they record which adds   -
 *   inwin                          a read may or must see (see the properties)
 *
 * Variants (spin -D...): STORE_AFTER_UNLOCK is 2.1.1's order of the slow path's last steps (bucket unlock, then
 * the bound stores), Java StoreAfterUnlockAggSum; SKIP_BORROW_CHECK is a fast path that skips the borrow check,
 * Java SkippedBoundCheckAggSum; STALE_COMPARE is a compare whose locked part starts from the bounds it read
 * before taking the lock, Java StaleBoundCompareAggSum. NEVER_SHRINKS is no bug but a claim that must be refuted:
 * that a slow path never shrinks a borrow (its refutation shows that A6's shrink is reached). SHRINK_GROWS flips the
 * sign of the shrink ((old - wanted) / 4), so a re-borrow below the old amount grows: the bounds stay sound, and
 * only A6's assertion refutes it. FLUSH_NO_BUCKET_LOCK is a flush that folds a bucket without taking its lock
 * (trusting the core lock it holds); a fast path on that bucket then writes its delta between the flush's two reads
 * of it, or after the flush zeroed it. Bounds: THREADS,
 * BUCKETS, OPS (operations per thread).
 *
 * Properties (docs/formal-models.md gives them as formulas). Let S range over the sets of adds that contain every
 * add completed before an operation began, only adds begun before it ended, and of each thread's adds a prefix
 * (program order). V(S) = INIT + the sum of the deltas in S. lo/hi = the least/greatest V(S).
 *   A5  a lock-free read of lower gives l <= hi; of upper gives u >= lo (each read is linearizable as "a bound of
 *       the value at some moment during the read"; the two reads are separate operations).
 *   A4  value() returns a value some linearization allows: V(S) for an instant T within the call and an S made of
 *       the adds completed at T and any of those in flight at T (each thread has at most one); vset[c] collects
 *       these values over the window of thread c's call (a bit per value), and value() must return one of them.
 *       compare(x) returns -1 only if some allowed value is below x, +1 only if some is above, 0 only if x is one.
 *   A1, A2  after every thread finished: |bdelta[b]| <= bborrowed[b]; lower = V - sum(d+B), upper = V + sum(B-d);
 *       a final value() returns V = INIT + the sum of all deltas (nothing lost or doubled).
 *   A3 (internal) a complete flush leaves lb == ub; no deadlock (pan's invalid end states).
 *   A6  a slow path's new borrow is the wanted one |d| << SHIFT when that is at least the old borrow, and otherwise
 *       lies between the wanted and the old borrow (asserted in the slow path).
 *
 * What the model leaves out, and why that cannot hide a violation of these properties
 *   - 64-bit arithmetic, V < 0. Values are small shorts. The deltas are 1, -1, BIG = 3 and, once per run and by
 *     thread 0, the large negative -NEG = -8, larger than any borrow or bucket delta the others leave, so it takes
 *     the slow path on an empty bucket and stores lower = INIT - NEG - 2 NEG, far below 0 (the lb > 0 guards).
 *     INIT = NEG + THREADS*OPS - 1 keeps V >= 0 and lets V reach 0. V < 0 (an accounting underflow; the ARC's
 *     sizes never go there) is left out: there the code answers neither as signed nor as unsigned (compare's
 *     pre-check by ub < target says -1, its unguarded last test says +1: fact sheet a.7), and an unsigned upper
 *     bound is below V, so no property of the contract is left to check. The comparisons that Java and C make
 *     unsigned are unsigned here (ULT, UGT), so a broken variant's negative upper bound is the huge number it is in
 *     Java. Overflow needs values near 2^63, not a question of interleaving.
 *   - The borrow is |d| << SHIFT, SHIFT = 1 here for 4 + bucketshift. The protocol depends on the shift only
 *     through B >= |d| after a slow path (so that the next add of that size can take the fast path) and the
 *     quarter-shrink rule, both kept; DELTAS include 3 so that a shrink (6 -> 5) happens within 4 adds.
 *   - Steps: every lock acquire and release and every read or write of a bucket field is a step of its own, in
 *     Java's and C's order (the table above), so a variant that leaves out a lock meets every interleaving of the
 *     accesses it no longer protects. Still merged: a read of borrowed with the step beside it (the slow path's
 *     read with its core-lock acquire, a flush's reads with its reads of delta), because every writer of borrowed
 *     holds the core lock, and so does every such reader (the fast path's read, under the bucket lock only, is a
 *     step of its own); likewise value's and compare's reads of both bounds with their core-lock acquire (every
 *     writer of a bound holds the core lock); the ghost updates of an invocation or a return with the step they
 *     mark. The bound stores are one step per store, and a lock-free bound read one step, exactly as in Java and C.
 *   - An operation's invocation is merged into its first step and its return into its last. Moving an invocation
 *     later or a return earlier only shrinks the set of allowed S, so the check is at least as strict as with
 *     separate steps, and every merged run is also a run of the code (nothing happens in between).
 *   - Memory model: steps are sequentially consistent. Java's bounds are volatile and the bucket fields are
 *     guarded by locks, so the program is data-race free except the homes hint, and the JMM gives it SC
 *     semantics. C's atomic_store_64/atomic_load_64 on LP64 are plain accesses; a weaker ordering there is not
 *     modelled (JCStress covers the JVM's real memory behaviour, stress/ BoundsSoundnessTest).
 *   - Buckets: an add picks any bucket nondeterministically, a superset of what Java's re-probing and ZFS's CPU
 *     ids can do. Threads, buckets, operations per thread and deltas are bounded; the larger bounds run with
 *     -Dmodels.large=true.
 *   - value() and compare() are checked for linearizability against a counter, exactly: an add's linearization
 *     point lies in its interval, the call's at some instant T of its window, so the adds before T are those
 *     completed at T and any subset of those in flight at T; every instant at which started[] or done[] changes
 *     while the window is open is visited (an add's completion only removes a choice, so the begins suffice). The
 *     bound reads (A5) stay existential: a bound is not a value of the counter.
 */

#include "reached.h"

#ifndef THREADS
#define THREADS 2
#endif
#ifndef BUCKETS
#define BUCKETS 1
#endif
#ifndef OPS
#define OPS 2
#endif
#ifndef SHIFT
#define SHIFT 1
#endif
#define BIG 3
/* the large negative delta: its magnitude exceeds every borrow (at most BIG << SHIFT = 6) and every bucket delta
   that the other deltas can leave before it */
#define NEG 8
/* V >= 0 always and V = 0 is reachable: one add(-NEG) (thread 0's, at most once) and every other add -1 */
#define INIT (NEG + THREADS * OPS - 1)

/* the core (as_lock and the two bounds) */
bit corelock;
short lower = INIT;
short upper = INIT;
/* the buckets */
bit blocked[BUCKETS];
short bdelta[BUCKETS];
short bborrowed[BUCKETS];

/* ghosts: per thread, the deltas of its completed adds and of its begun adds */
short done[THREADS];
short started[THREADS];
/* ghosts: per open value/compare c, the values V(S) some linearization allows, a bit per value (V is in
   [0, 31] at every bound checked: INIT + 3 * THREADS * OPS <= 31) */
bit inwin[THREADS];
int vset[THREADS];
byte finished;

#define BORROW(d) ((d) < 0 -> (-(d)) << SHIFT : (d) << SHIFT)
/* Java's Long.compareUnsigned and C's u64 comparisons, for a target x >= 0 and two's-complement a */
#define ULT(a, x) ((a) >= 0 && (a) < (x))
#define UGT(a, x) ((a) < 0 || (a) > (x))
#define MIN(a, b) ((a) < (b) -> (a) : (b))
#define MAX(a, b) ((a) > (b) -> (a) : (b))

/* ghost: window c takes in every value a linearization point now allows: INIT plus, per thread, the deltas of its
   completed adds, with or without its add in flight */
inline allowNow(c) {
    for (m : 0 .. (1 << THREADS) - 1) {
        v = INIT;
        for (g : 0 .. THREADS - 1) {
            v = v + ((m >> g) & 1 -> started[g] : done[g])
        }
        vset[c] = vset[c] | (1 << v)
    }
    m = 0;
    v = 0;
    g = 0
}

/* ghost: thread t begins an add of d; every open window of a value/compare takes in the new instant's values */
inline begin(t, d) {
    started[t] = started[t] + d;
    for (c : 0 .. THREADS - 1) {
        if
        :: inwin[c] -> allowNow(c)
        :: else -> REACHED
        fi
    }
    c = 0
}

/* ghost: lo and hi of an instantaneous read (a bound read) */
inline nowRange() {
    lo = INIT;
    hi = INIT;
    for (g : 0 .. THREADS - 1) {
        lo = lo + MIN(done[g], started[g]);
        hi = hi + MAX(done[g], started[g])
    }
    g = 0
}

/* ghost: thread w's value/compare begins */
inline openWindow(w) {
    vset[w] = 0;
    allowNow(w);
    inwin[w] = 1
}

/* ghost: thread w's value/compare ends; lo and hi are the least and greatest allowed value (for the messages) */
inline closeWindow(w) {
    lo = -1;
    hi = -1;
    for (m : 0 .. 31) {
        if
        :: (vset[w] >> m) & 1 -> hi = m; lo = (lo < 0 -> m : lo)
        :: else -> skip
        fi
    }
    m = 0;
    inwin[w] = 0
}

/* whether r is a value some linearization allows in thread w's window */
#define ALLOWED(w, r) ((r) >= 0 && (r) <= 31 && ((vset[w] >> (r)) & 1))

/* aggsum_add / AggSum.add(d) by thread t on a bucket of its choice; one step per access to a bucket field */
inline add(t, d) {
    select (b : 0 .. BUCKETS - 1);
fastPath:
    /* lockedBucketOfCurrentThread: bucket.lock() (mutex_enter(&asb->asc_lock)); the invocation */
    atomic { blocked[b] == 0 -> blocked[b] = 1; begin(t, d) };
    /* newDelta = bucket.delta + delta (asc_delta + delta) */
    nd = bdelta[b] + d;
    /* withinBorrow(newDelta, bucket.borrowed) (the test against (int64_t)asc_borrowed) */
    atomic {
#ifdef SKIP_BORROW_CHECK
        if
        :: true ->
#else
        if
        :: nd <= bborrowed[b] && nd >= -bborrowed[b] ->
#endif
            printf("M1: T%d add(%d), bucket %d: fast path, delta %d, borrowed %d\n", t, d, b, nd, bborrowed[b]);
            fast = 1
        :: else ->
            printf("M1: T%d add(%d), bucket %d: delta %d outside borrowed %d, slow path\n", t, d, b, nd, bborrowed[b])
        fi
    };
    if
    :: fast ->
        /* bucket.delta = newDelta (asc_delta += delta) */
        bdelta[b] = nd;
        /* bucket.unlock(); add returns */
        atomic { blocked[b] = 0; done[t] = done[t] + d; fast = 0; nd = 0 }
    :: else ->
        /* bucket.unlock(), then borrowAndAdd */
        atomic { blocked[b] = 0; nd = 0 };
slowPath:
        /* synchronized (core) (as_lock), old = bucket.borrowed, AggSumLayout.borrowChange */
        atomic {
            corelock == 0 -> corelock = 1;
            old = bborrowed[b];
            borrow = BORROW(d);
            if
            :: borrow >= old -> borrow = borrow - old
#ifdef SHRINK_GROWS
            :: else -> borrow = (old - borrow) / 4
#else
            :: else -> borrow = (borrow - old) / 4
#endif
            fi;
            /* A6: a re-borrow grows to the wanted amount, or shrinks toward it: never above the old borrow, never
               below the wanted one */
            assert(BORROW(d) >= old -> old + borrow == BORROW(d)
                   : (old + borrow <= old && old + borrow >= BORROW(d)));
            printf("M1: T%d takes the core lock, changes the borrow by %d\n", t, borrow);
#ifdef NEVER_SHRINKS
            /* a claim spin must refute, which shows that A6's quarter-shrink is reached at these bounds */
            assert(borrow >= 0);
#endif
            skip
        };
        /* bucket.lock() (mutex_enter(&asb->asc_lock)) */
        atomic { blocked[b] == 0 -> blocked[b] = 1 };
        /* total = delta + bucket.delta (delta += asc_delta) */
        total = d + bdelta[b];
        /* bucket.delta = 0 (asc_delta = 0) */
        bdelta[b] = 0;
        /* bucket.borrowed = old + borrow (asc_borrowed += borrow) */
        atomic {
            bborrowed[b] = old + borrow;
            printf("M1: T%d (core lock held) folds bucket %d, borrowed %d\n", t, b, bborrowed[b])
        };
#ifdef STORE_AFTER_UNLOCK
        /* 2.1.1: mutex_exit(&asb->asc_lock), then the two stores */
        atomic { blocked[b] = 0; printf("M1: T%d releases the bucket lock\n", t) };
slowStore:
        atomic { lower = lower + total - borrow; printf("M1: T%d stores lower = %d\n", t, lower) };
        atomic { upper = upper + total + borrow; printf("M1: T%d stores upper = %d\n", t, upper) };
#else
        /* storeBoundsAndUnlock: the two stores, then bucket.unlock() */
slowStore:
        atomic { lower = lower + total - borrow; printf("M1: T%d stores lower = %d\n", t, lower) };
        atomic { upper = upper + total + borrow; printf("M1: T%d stores upper = %d\n", t, upper) };
        atomic { blocked[b] = 0; printf("M1: T%d releases the bucket lock\n", t) };
#endif
        /* the end of synchronized (core) (mutex_exit(&as->as_lock)); add returns */
        atomic {
            corelock = 0;
            done[t] = done[t] + d;
            printf("M1: T%d releases the core lock; add(%d) returns\n", t, d);
            old = 0;
            borrow = 0;
            total = 0
        }
    fi;
    b = 0
}

/* aggsum_lower_bound / AggSum.lowerBound(): one load, judged against the adds it may see (A5) */
inline readLower(t) {
    d_step {
        nowRange();
        printf("M1: T%d lowerBound() = %d; the adds it may see give V in [%d, %d]\n", t, lower, lo, hi);
        assert(lower <= hi);
        lo = 0;
        hi = 0
    }
}

/* aggsum_upper_bound / AggSum.upperBound() (A5) */
inline readUpper(t) {
    d_step {
        nowRange();
        printf("M1: T%d upperBound() = %d; the adds it may see give V in [%d, %d]\n", t, upper, lo, hi);
        assert(!ULT(upper, lo));
        lo = 0;
        hi = 0
    }
}

/* one iteration of thread t's flush loop, core lock held: fold bucket i into lb and ub if it has borrowed
   (folded = 1); one step per access to a bucket field, in flushLocked's order */
inline flushBucket(t, i) {
    /* if (bucket.borrowed == 0) continue (read without the bucket lock: every writer of borrowed holds as_lock) */
    if
    :: bborrowed[i] != 0 ->
#ifndef FLUSH_NO_BUCKET_LOCK
        /* bucket.lock() */
        atomic { blocked[i] == 0 -> blocked[i] = 1 };
#endif
        /* lb += bucket.delta + bucket.borrowed */
        atomic {
            lb = lb + bdelta[i] + bborrowed[i];
            printf("M1: T%d folds bucket %d: delta %d, borrowed %d, lb = %d\n", t, i, bdelta[i], bborrowed[i], lb)
        };
        /* ub += bucket.delta - bucket.borrowed (a second read of delta) */
        atomic {
            ub = ub + bdelta[i] - bborrowed[i];
            printf("M1: T%d folds bucket %d: delta %d, borrowed %d, ub = %d\n", t, i, bdelta[i], bborrowed[i], ub)
        };
        /* bucket.delta = 0 */
        bdelta[i] = 0;
        /* bucket.borrowed = 0 */
        bborrowed[i] = 0;
#ifdef FLUSH_NO_BUCKET_LOCK
        folded = 1
#else
        /* bucket.unlock() */
        atomic { blocked[i] = 0; folded = 1 }
#endif
#if BUCKETS > 1
    :: else -> REACHED
#else
    :: else /* no REACHED: with one bucket pan finds this option never taken (every flush meets a borrowed
               bucket); the checks with two buckets take it */
#endif
    fi
}

/* aggsum_value / AggSum.value() by thread t (A4) */
inline value(t) {
    atomic {
        corelock == 0 -> corelock = 1;
        openWindow(t);
        lb = lower;
        ub = upper;
        printf("M1: T%d value() takes the core lock: lower %d, upper %d\n", t, lb, ub)
    };
    if
    :: lb != ub ->
        for (i : 0 .. BUCKETS - 1) {
            flushBucket(t, i);
            folded = 0
        };
        assert(lb == ub);
        atomic { lower = lb; printf("M1: T%d stores lower = %d\n", t, lower) };
        atomic { upper = ub; printf("M1: T%d stores upper = %d\n", t, upper) }
    :: else -> REACHED
    fi;
    atomic {
        corelock = 0;
        closeWindow(t);
        printf("M1: T%d value() = %d; the linearizations allow V in [%d, %d], set %d\n", t, lb, lo, hi, vset[t]);
        assert(ALLOWED(t, lb));
        vset[t] = 0;
        lo = 0; hi = 0; lb = 0; ub = 0; i = 0
    }
}

/* ghost: compare(x) by thread c returns res; judged against its window (A4) */
inline compareReturns(c, x) {
    closeWindow(c);
    printf("M1: T%d compare(%d) = %d; the linearizations allow V in [%d, %d], set %d\n", c, x, res, lo, hi,
        vset[c]);
    assert(res != -1 || (vset[c] & ((1 << x) - 1)) != 0);
    assert(res != 1 || (vset[c] >> (x + 1)) != 0);
    assert(res != 0 || ALLOWED(c, x));
    vset[c] = 0;
    lo = 0; hi = 0; lb = 0; ub = 0; i = 0; res = 0
}

/* aggsum_compare / AggSum.compare(x) by thread t (A4) */
inline compare(t, x) {
    atomic {
        openWindow(t);
        ub = upper;
        printf("M1: T%d compare(%d) reads upper = %d\n", t, x, ub);
        if
        :: ULT(ub, x) -> res = -1; compareReturns(t, x); decided = 1
        :: else -> REACHED
        fi
    };
    if
    :: decided -> decided = 0
    :: else ->
        atomic {
            lb = lower;
            printf("M1: T%d compare(%d) reads lower = %d\n", t, x, lb);
            if
            :: lb > 0 && lb > x -> res = 1; compareReturns(t, x); decided = 1
            :: else -> REACHED
            fi
        };
        if
        :: decided -> decided = 0
        :: else ->
locked:
            atomic {
                corelock == 0 -> corelock = 1;
#ifndef STALE_COMPARE
                lb = lower;
                ub = upper;
#endif
                printf("M1: T%d compare(%d) takes the core lock, flushes from lower %d, upper %d\n", t, x, lb, ub)
            };
            i = 0;
            do
            :: i < BUCKETS ->
                flushBucket(t, i);
                i++;
                if
                :: folded && (ULT(ub, x) || (lb > 0 && lb > x)) -> folded = 0; break
                :: else -> folded = 0
                fi
            :: else ->
                assert(lb == ub);
                break
            od;
            atomic { lower = lb; printf("M1: T%d stores lower = %d\n", t, lower) };
            atomic { upper = ub; printf("M1: T%d stores upper = %d\n", t, upper) };
            atomic {
                corelock = 0;
                if
                :: ULT(ub, x) -> res = -1
                :: !ULT(ub, x) && UGT(lb, x) -> res = 1
                :: else -> REACHED
                fi;
                compareReturns(t, x)
            }
        fi
    fi
}

mtype = { ADD, LOWER, UPPER, VALUE, COMPARE };

/* a thread: OPS operations, each one chosen from all of them, with every delta and target */
proctype worker(byte t) {
    byte b, i, g, n, c, m;
    bit fast, folded, decided;
    bit freed;
    short d, x, nd, old, borrow, total, lb, ub, lo, hi, v;
    int res;
    mtype op;
    for (n : 1 .. OPS) {
        if
        :: op = ADD; d = 1
        :: op = ADD; d = -1
        :: op = ADD; d = BIG
        :: t == 0 && !freed -> freed = 1; op = ADD; d = -NEG
        :: op = LOWER
        :: op = UPPER
        :: op = VALUE
        :: op = COMPARE; x = INIT
        :: op = COMPARE; x = INIT + 1
        fi;
        if
        :: op == ADD -> add(t, d)
        :: op == LOWER -> readLower(t)
        :: op == UPPER -> readUpper(t)
        :: op == VALUE -> value(t)
        :: op == COMPARE -> compare(t, x)
        fi;
        op = 0; d = 0; x = 0
    };
    n = 0;
    finished++
}

/* starts the workers; when all have finished, checks A1 and A2 and that a final value() is the sum of all deltas */
init {
    byte g, i;
    bit folded, a1;
    short v, sd, sb, lb, ub;
    atomic {
        for (g : 0 .. THREADS - 1) {
            run worker(g)
        };
        g = 0
    }
    finished == THREADS;
    d_step {
        v = INIT;
        for (g : 0 .. THREADS - 1) {
            v = v + done[g]
        };
        a1 = 1;
        for (i : 0 .. BUCKETS - 1) {
            sd = sd + bdelta[i];
            sb = sb + bborrowed[i];
            a1 = a1 && bdelta[i] <= bborrowed[i] && bdelta[i] >= -bborrowed[i]
        };
        lb = lower;
        ub = upper;
        for (i : 0 .. BUCKETS - 1) {
            flushBucket(THREADS, i)
        }
    };
    /* A1, A2 as the code sees them: a final value() is the sum of all deltas */
    assert(lb == v && ub == v);
    /* A1 and A2 as invariants of the state */
    assert(a1);
    assert(lower + sd + sb == v && upper - sb + sd == v)
}
