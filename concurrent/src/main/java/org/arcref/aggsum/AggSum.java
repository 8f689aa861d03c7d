package org.arcref.aggsum;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.arcref.zfs.Validate;

/**
 * A counter that many threads add to cheaply and that can be read as a pair of bounds or, at a price, exactly:
 * the OpenZFS 2.1 {@code aggsum_t} ({@code module/zfs/aggsum.c}), which holds {@code arc_size}.
 *
 * <h2>Contract</h2>
 * Let V be the sum of the initial value and of the deltas of all {@link #add adds} that completed.
 * <ul>
 *   <li>{@link #lowerBound()} ≤ V ≤ {@link #upperBound()} (lower bound signed, upper bound unsigned) with respect
 *       to every add that completed before the read began; an add still in flight may or may not be reflected
 *       (A5). The two reads are <em>not</em> a consistent pair: reading one and then the other may combine bounds
 *       from different moments.</li>
 *   <li>The gap {@code upperBound() - lowerBound()} is twice the sum of the amounts the buckets have borrowed
 *       (A2). A bucket borrows at most {@code |δ| << (4 + bucketShift)} for the largest delta δ of its recent
 *       slow-path adds, so the gap is at most {@code 2 · numBuckets · (δmax << (4 + bucketShift))}.</li>
 *   <li>{@link #value()} returns V exactly and {@link #compare(long)} the exact sign of V − target (target
 *       unsigned); both are linearizable, serialised by the core lock, and both flush buckets, which makes the
 *       next add on each flushed bucket take the slow path (A4).</li>
 *   <li>Bounds, value and compare are cheap to <em>read</em> in the order listed and expensive in the reverse
 *       order; adds are cheap while they stay within their bucket's borrow.</li>
 * </ul>
 * Arithmetic mirrors the C code: the lower bound is a signed 64-bit value, the upper bound, {@code value()} and
 * the compare target are unsigned ({@link Long#compareUnsigned}); deltas wrap around as two's-complement longs.
 *
 * <p>An {@linkplain #exact exact} aggsum never borrows: every add updates both bounds under the core lock, so
 * the bounds are always equal to V. It exists for differential tests against a sequential spec.
 *
 * <p>The class cannot be subclassed outside its package; {@link #withinBorrow}, {@link #compareLocked} and
 * {@link #storeBoundsAndUnlock} are package-private seams through which tests build deliberately broken variants,
 * and {@link #pauses} lets a test hold a thread at a named point to replay an interleaving deterministically.
 */
public class AggSum {
    /*
     * Implementation overview.
     *
     * State (fact sheet a.1): a core, guarded by the monitor of `core` (as_lock), holding a lower and an upper
     * bound; and per-bucket state (AggSumBucket, with its own lock = asc_lock) holding `delta`, what the bucket has
     * accumulated and not folded into the core, and `borrowed`, headroom the core has already accounted for.
     *
     * Invariants, kept by every operation (fact sheet f):
     *   A1  for every bucket |delta| <= borrowed.
     *   A2  under the core lock: lower = V - sum(delta_b + borrowed_b), upper = V + sum(borrowed_b - delta_b);
     *       hence lower <= V <= upper and upper - lower = 2 * sum(borrowed_b).
     *   A3  lower == upper exactly when every bucket has borrowed == 0 and delta == 0.
     *   A4  value() returns V and leaves lower == upper == V with all buckets empty; compare() returns the exact
     *       sign, flushing buckets in index order only until the sign is decided.
     *   A5  the lock-free bound reads are valid for every add that completed before the read.
     *   A6  slow path: the new borrow is |d| << (4 + shift) if that is >= the old borrow, otherwise the old
     *       borrow shrinks by a quarter of the excess (C truncating division); the bucket's delta becomes 0 and
     *       the whole delta goes into both core bounds.
     *   A7  lock order core -> bucket; the fast path takes only the bucket's lock.
     *
     * add (aggsum_add): under the bucket lock, if delta + d stays within [-B, B] it is kept in the bucket and
     * the core is untouched (fast path). Otherwise the slow path takes the core lock, recomputes the borrow (A6),
     * then under the bucket lock folds the bucket's delta into the caller's and zeroes it and stores both
     * bounds. ZFS 2.1 stores the bounds after dropping the bucket lock; in that window another thread on the same
     * bucket can complete a fast-path add within the new borrow and then read bounds that include neither that
     * borrow nor its add (its own compare says -1 although its add took the value over the target), which
     * breaks A5. Lincheck finds it as soon as two threads share a bucket (a one-bucket layout), so here the
     * stores come before the bucket unlock; the amounts borrowed and stored are ZFS's. Because the fast-path
     * check and the slow path are separate critical sections, another thread may change the bucket in between;
     * that is harmless since the slow path folds whatever the bucket holds.
     * `borrowed` is written only with both locks held, so the slow path may read it under the core lock alone.
     *
     * value / compare: take the core lock and fold every bucket that has borrowed != 0 (a bucket with
     * borrowed == 0 has delta == 0 by A1) into local copies of the bounds, zeroing it, then store the bounds once.
     * compare first tries to decide from the lock-free bounds (a.7 steps 1-2) and stops folding as soon as the
     * sign is decided; its final test lacks the `lower > 0` guard of the others, exactly as in 2.1, so a negative
     * V (an accounting underflow) compares as a huge unsigned value.
     *
     * Buckets: Java has no CPU id, so a thread's bucket is a hint kept per thread-id slot: a stable hash of the
     * thread id picks one of HOME_SLOTS slots, and homes[slot] is the bucket its threads use, initially the hash
     * mapped onto the buckets by a multiply-shift range reduction. When the fast path finds that bucket's lock
     * taken, the thread moves its slot's home to the next bucket and takes that one's lock instead (Striped64's
     * re-probe on a failed CAS), so two threads that started on the same bucket part after their first
     * collision and stay apart. homes is written without synchronisation: a lost or stale write only picks
     * another bucket. The bucket is only a contention hint; correctness rests on the locks, so any thread may use
     * any bucket, and the slow path uses whichever bucket the fast path held. Buckets are
     * padded (AggSumBucket). The bucket lock is a small spin lock (AggSumBucket): one CAS to take it and one
     * release store to drop it, against two atomics for a monitor or a ReentrantLock; the critical sections are a
     * few loads and stores, never blocking. The core lock is a monitor: it guards the slow paths and flushes.
     *
     * Test seams: the slow path ends in storeBoundsAndUnlock, so that a test variant can take 2.1.1's order; and a
     * slow path (after it releases the bucket) and a compare (before it takes the core lock) pass through pause(),
     * a null check of a hook that a deterministic test sets to hold a thread there (the replays of model M1's
     * counterexamples). Neither is on the fast path or the bound reads. add takes its thread's home slot and
     * hands it to addFromSlot, which a test calls with a slot of its choosing, so that the exhaustive checker
     * (which creates new threads, with new ids, in every run of a scenario) sees the same bucket each time.
     *
     * Bounds are volatile: a read is a plain load on x86 and is ordered with the slow path's stores, which is what
     * A5 needs. Counters for experiments are plain fields under the lock already held (fast-path adds per bucket,
     * slow paths and flushed buckets under the core lock) except the call counts of value and compare, which can
     * return before taking any lock and use LongAdders.
     */

    private static final int HOME_SLOT_BITS = 6;
    private static final int HOME_SLOTS = 1 << HOME_SLOT_BITS;

    /** The layout ({@code as_numbuckets}, {@code as_bucketshift}). */
    private final AggSumLayout layout;
    /** No borrowing: every add goes to the core. */
    private final boolean exact;
    /** {@code as_buckets}; empty in exact mode. */
    final AggSumBucket[] buckets;
    /** Per thread-id slot, the index of the bucket its threads add to; a hint, moved on contention. */
    private final int[] homes;
    /** {@code as_lock}: its monitor guards the core and the writes of every bucket's borrow. */
    final Object core = new Object();
    /** {@code as_lower_bound}, signed. Written only under the core lock. */
    private volatile long lowerBound;
    /** {@code as_upper_bound}, unsigned. Written only under the core lock. */
    private volatile long upperBound;
    /** Slow-path adds; guarded by the core lock. */
    private long slowPathAdds;
    /** Buckets folded by value and compare; guarded by the core lock. */
    private long bucketsFlushed;
    private final LongAdder valueCalls = new LongAdder();
    private final LongAdder compareCalls = new LongAdder();
    /**
     * Test seam, called at every {@link Pause} point. Null except in a test, which sets it before the threads that
     * use this aggsum start; the fast path and the bound reads never look at it.
     */
    Consumer<Pause> pauses;

    AggSum(long initialValue, AggSumLayout layout, boolean exact) {
        this.layout = Validate.notNull("layout", layout);
        this.exact = exact;
        this.buckets = new AggSumBucket[exact ? 0 : layout.numBuckets()];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new AggSumBucket();
        }
        this.homes = new int[exact ? 0 : HOME_SLOTS];
        for (int slot = 0; slot < homes.length; slot++) {
            homes[slot] = (int) ((((long) slot * 0x9E37_79B9L) & 0xFFFF_FFFFL) * buckets.length >>> 32);
        }
        this.lowerBound = initialValue;
        this.upperBound = initialValue;
    }

    /**
     * {@code aggsum_init(as, value)} with the bucket layout of this machine ({@link AggSumLayout#forThisMachine()}).
     */
    public static AggSum create(long initialValue) {
        return new AggSum(initialValue, AggSumLayout.forThisMachine(), false);
    }

    /**
     * {@code aggsum_init(as, value)} with a given layout, e.g. {@link AggSumLayout#forCpus(int)} to model another
     * machine or {@link AggSumLayout#singleBucket()} to make every thread share one bucket.
     *
     * @throws IllegalArgumentException if {@code layout} is null
     */
    public static AggSum create(long initialValue, AggSumLayout layout) {
        return new AggSum(initialValue, layout, false);
    }

    /** An aggsum that never borrows: its bounds always equal its exact value. For differential tests. */
    public static AggSum exact(long initialValue) {
        return new AggSum(initialValue, AggSumLayout.singleBucket(), true);
    }

    /**
     * {@code aggsum_add(as, delta)}: adds {@code delta} (negative to subtract). Takes only the bucket's lock
     * while the bucket's borrow covers it, otherwise the core lock and then the bucket's lock.
     */
    public void add(long delta) {
        if (exact) {
            addToCore(delta);
            return;
        }
        addFromSlot(homeSlotOfCurrentThread(), delta);
    }

    /**
     * The bucketed {@code aggsum_add} of a thread whose home slot is {@code slot} (in [0, 64)): the fast path on
     * that slot's home bucket, else the slow path. {@link #add} passes the calling thread's slot; a test seam passes
     * a fixed one, so that which bucket a scenario thread starts on does not follow from its thread id.
     */
    void addFromSlot(int slot, long delta) {
        AggSumBucket bucket = lockedBucket(slot);
        long newDelta = bucket.delta + delta;
        if (withinBorrow(newDelta, bucket.borrowed)) {
            bucket.delta = newDelta;
            bucket.fastPathAdds++;
            bucket.unlock();
            return;
        }
        bucket.unlock();
        borrowAndAdd(bucket, delta);
    }

    /**
     * The fast path's test in {@code aggsum_add}: {@code -B <= d + delta <= B}. A seam for tests; production code
     * never overrides it.
     */
    boolean withinBorrow(long newDelta, long borrowed) {
        return newDelta <= borrowed && newDelta >= -borrowed;
    }

    /** The slow path of {@code aggsum_add}: re-borrow (A6), fold the bucket into the core bounds. */
    private void borrowAndAdd(AggSumBucket bucket, long delta) {
        long borrow = layout.borrowFor(delta);
        synchronized (core) {
            long old = bucket.borrowed;
            borrow = AggSumLayout.borrowChange(borrow, old);
            bucket.lock();
            long total = delta + bucket.delta;
            bucket.delta = 0;
            bucket.borrowed = old + borrow;
            storeBoundsAndUnlock(bucket, total - borrow, total + borrow);
            slowPathAdds++;
        }
    }

    /**
     * The last step of the slow path, entered with the core lock and {@code bucket}'s lock held: adds the amounts
     * to the bounds, then releases the bucket's lock. Storing before the release keeps A5 (see the implementation
     * overview); 2.1.1 releases first. A seam for tests ({@code StoreAfterUnlockAggSum} takes 2.1.1's order);
     * production code never overrides it.
     */
    void storeBoundsAndUnlock(AggSumBucket bucket, long toLower, long toUpper) {
        addToBounds(toLower, toUpper);
        bucket.unlock();
        pause(Pause.SLOW_PATH_BUCKET_RELEASED);
    }

    /** With the core lock held: moves the lower bound by {@code toLower} and the upper one by {@code toUpper}. */
    final void addToBounds(long toLower, long toUpper) {
        lowerBound = lowerBound + toLower;
        upperBound = upperBound + toUpper;
    }

    private void addToCore(long delta) {
        synchronized (core) {
            addToBounds(delta, delta);
            slowPathAdds++;
        }
    }

    /**
     * The points at which a deterministic test can hold a thread ({@code AggSumPause} in the test sources), to
     * replay an interleaving that model M1's checker found ({@code docs/formal-models.md}).
     */
    enum Pause {
        /** The slow path has released the bucket's lock and still holds the core lock. */
        SLOW_PATH_BUCKET_RELEASED,
        /** {@code compare} has read both bounds without a lock, could not decide, and has not taken the core lock. */
        COMPARE_BEFORE_CORE_LOCK
    }

    /** A seam for tests: passes {@code point} to {@link #pauses} if a test set it. */
    final void pause(Pause point) {
        Consumer<Pause> hook = pauses;
        if (hook != null) {
            hook.accept(point);
        }
    }

    /** The calling thread's home slot: a stable hash of its id onto [0, 64). */
    private static int homeSlotOfCurrentThread() {
        return (int) ((Thread.currentThread().getId() * 0x9E37_79B9_7F4A_7C15L) >>> (64 - HOME_SLOT_BITS));
    }

    /**
     * Takes the lock of {@code slot}'s home bucket, or, if that is held, moves the slot's home to the next bucket
     * and waits for that one's lock; returns the bucket whose lock is held.
     */
    private AggSumBucket lockedBucket(int slot) {
        int home = homes[slot];
        AggSumBucket bucket = buckets[home];
        if (bucket.tryLock()) {
            return bucket;
        }
        home = home + 1 == buckets.length ? 0 : home + 1;
        homes[slot] = home;
        bucket = buckets[home];
        bucket.lock();
        return bucket;
    }

    /**
     * {@code aggsum_lower_bound}: a lock-free read of the signed lower bound, valid for every add that completed
     * before the call (A5).
     */
    public long lowerBound() {
        return lowerBound;
    }

    /**
     * {@code aggsum_upper_bound}: a lock-free read of the upper bound, an unsigned value, valid for every add that
     * completed before the call (A5). Not consistent with a separate {@link #lowerBound()} read.
     */
    public long upperBound() {
        return upperBound;
    }

    /**
     * {@code aggsum_value}: the exact value, as an unsigned long; linearizable. Flushes every bucket that has
     * borrowed, so that afterwards both bounds equal the value (A4).
     */
    public long value() {
        valueCalls.increment();
        synchronized (core) {
            long lb = lowerBound;
            if (lb == upperBound) {
                return lb;
            }
            flushLocked(lb, upperBound, 0, false);
            return lowerBound;
        }
    }

    /**
     * {@code aggsum_compare(as, target)}: the exact sign of {@code value() - target}, comparing as unsigned
     * 64-bit values: -1, 0 or 1; linearizable. Decides from the lock-free bounds when it can, otherwise flushes
     * buckets in index order until the sign is decided.
     */
    public int compare(long target) {
        compareCalls.increment();
        long ub = upperBound;
        if (Long.compareUnsigned(ub, target) < 0) {
            return -1;
        }
        long lb = lowerBound;
        if (lb > 0 && Long.compareUnsigned(lb, target) > 0) {
            return 1;
        }
        pause(Pause.COMPARE_BEFORE_CORE_LOCK);
        return compareLocked(lb, ub, target);
    }

    /**
     * The locked part of {@code aggsum_compare}. It re-reads the core under the lock: {@code seenLower} and
     * {@code seenUpper}, what the lock-free pre-check saw, may already be stale. They are passed only so that a
     * test can model the bug of trusting them; production code never overrides this seam.
     */
    int compareLocked(long seenLower, long seenUpper, long target) {
        synchronized (core) {
            return flushLocked(lowerBound, upperBound, target, true);
        }
    }

    /**
     * With the core lock held: folds the buckets that have borrowed into {@code lb} and {@code ub}, in index
     * order, stopping early when {@code untilDecided} and the sign against {@code target} is known; stores the
     * bounds and returns the sign as {@code aggsum_compare} computes it.
     */
    int flushLocked(long lb, long ub, long target, boolean untilDecided) {
        boolean complete = true;
        for (AggSumBucket bucket : buckets) {
            if (bucket.borrowed == 0) {
                continue;
            }
            bucket.lock();
            lb += bucket.delta + bucket.borrowed;
            ub += bucket.delta - bucket.borrowed;
            bucket.delta = 0;
            bucket.borrowed = 0;
            bucket.unlock();
            bucketsFlushed++;
            if (untilDecided && (Long.compareUnsigned(ub, target) < 0
                    || (lb > 0 && Long.compareUnsigned(lb, target) > 0))) {
                complete = false;
                break;
            }
        }
        assert !complete || lb == ub : "A3: after a full flush lower == upper, was " + lb + " != " + ub;
        lowerBound = lb;
        upperBound = ub;
        if (Long.compareUnsigned(ub, target) < 0) {
            return -1;
        }
        return Long.compareUnsigned(lb, target) > 0 ? 1 : 0;
    }

    /** @return a read-only view of this aggsum, for readers that must not add to it */
    public AggSumView view() {
        return new AggSumView(this);
    }

    /** The layout this aggsum was created with ({@code as_numbuckets}, {@code as_bucketshift}). */
    public AggSumLayout layout() {
        return layout;
    }

    /** Whether this aggsum never borrows (see {@link #exact(long)}). */
    public boolean isExact() {
        return exact;
    }

    /** A snapshot of the event counters; takes each bucket's lock in turn, then the core lock. */
    public AggSumCounters counters() {
        long fast = 0;
        for (AggSumBucket bucket : buckets) {
            bucket.lock();
            fast += bucket.fastPathAdds;
            bucket.unlock();
        }
        synchronized (core) {
            return new AggSumCounters(fast, slowPathAdds, valueCalls.sum(), compareCalls.sum(), bucketsFlushed);
        }
    }

    @Override
    public String toString() {
        return "AggSum[lower=" + lowerBound + ", upper=" + Long.toUnsignedString(upperBound)
                + ", buckets=" + buckets.length + ", shift=" + layout.bucketShift() + (exact ? ", exact" : "") + "]";
    }
}
