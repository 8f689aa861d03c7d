package org.arcref.arc;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.IntStream;

/**
 * A thread-safe histogram of durations in nanoseconds: how long threads waited for eviction
 * ({@link ConcurrentArc#evictionWaitTimes()}).
 *
 * <h2>Contract</h2>
 * {@link #count()} and {@link #max()} are exact; {@link #percentile(double)} returns the upper bound of the bucket
 * holding the quantile, capped at the maximum, which is at most 12.5 % above the true value (and exact below
 * 16 ns). Concurrent {@link #record} calls are never lost; a read while records are in flight may miss them.
 */
public final class WaitTimes {
    /*
     * Log-linear buckets: values below 16 have a bucket each; above, each power of two [2^e, 2^(e+1)) is split into
     * 8 equal buckets by the 3 bits below the leading one, so a bucket's width is at most 1/8 of its lower bound.
     */

    private static final int LINEAR = 16;
    private static final int SUB_BITS = 3;
    private static final int SUB = 1 << SUB_BITS;
    private static final int BUCKETS = LINEAR + (63 - 4) * SUB;

    private final AtomicLongArray buckets = new AtomicLongArray(BUCKETS);
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong max = new AtomicLong();

    /** @param nanos a duration; negative values count as 0 */
    public void record(long nanos) {
        long v = Math.max(0, nanos);
        buckets.incrementAndGet(bucketOf(v));
        count.incrementAndGet();
        max.accumulateAndGet(v, Math::max);
    }

    /**
     * Adds every duration recorded in {@code other} to this histogram, as if recorded here: merges per-thread
     * histograms, which record without contention. A record into {@code other} while this runs may be missed.
     *
     * @param other another histogram
     */
    public void addAll(WaitTimes other) {
        for (int i = 0; i < BUCKETS; i++) {
            long n = other.buckets.get(i);
            if (n != 0) {
                buckets.addAndGet(i, n);
            }
        }
        count.addAndGet(other.count());
        max.accumulateAndGet(other.max(), Math::max);
    }

    /** @return the number of durations recorded */
    public long count() {
        return count.get();
    }

    /** @return the longest duration recorded, 0 if none */
    public long max() {
        return max.get();
    }

    /**
     * @param q the quantile, in [0, 1]
     * @return the smallest bucket bound below which at least {@code q} of the durations lie, capped at
     *     {@link #max()}; 0 if nothing was recorded
     * @throws IllegalArgumentException if {@code q} is outside [0, 1]
     */
    public long percentile(double q) {
        if (!(q >= 0 && q <= 1)) {
            throw new IllegalArgumentException("q must be in [0, 1], was " + q);
        }
        long total = 0;
        for (int i = 0; i < BUCKETS; i++) {
            total += buckets.get(i);
        }
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += buckets.get(i);
            if (seen >= rank) {
                return Math.min(upperBound(i), max());
            }
        }
        return max();
    }

    /**
     * @return the non-empty buckets as {@code {lowerBound, upperBound, count}} triples, in increasing order (for
     *     charts)
     */
    public long[][] buckets() {
        return IntStream.range(0, BUCKETS).filter(i -> buckets.get(i) > 0)
                .mapToObj(i -> new long[] {lowerBound(i), upperBound(i), buckets.get(i)}).toArray(long[][]::new);
    }

    static int bucketOf(long v) {
        if (v < LINEAR) {
            return (int) v;
        }
        int e = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) (v >>> (e - SUB_BITS)) & (SUB - 1);
        return LINEAR + (e - 4) * SUB + sub;
    }

    static long lowerBound(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int e = (bucket - LINEAR) / SUB + 4;
        int sub = (bucket - LINEAR) % SUB;
        return (long) (SUB + sub) << (e - SUB_BITS);
    }

    static long upperBound(int bucket) {
        if (bucket < LINEAR) {
            return bucket;
        }
        int e = (bucket - LINEAR) / SUB + 4;
        return lowerBound(bucket) + (1L << (e - SUB_BITS)) - 1;
    }
}
