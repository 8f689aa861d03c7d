package org.arcref.bench.evictor;

/**
 * A histogram of durations in nanoseconds with a relative error below 1/{@value #SUB_BUCKETS}: values are
 * grouped by their highest set bit, each such range split into {@value #SUB_BUCKETS} equal sub-buckets. The
 * maximum is kept exactly. Not thread-safe: one per thread, {@link #add merged} at the end.
 */
final class LatencyHistogram {
    /*
     * Overview: a value v >= SUB_BUCKETS with highest bit h (0-based) falls in range r = h - SUB_BITS + 1 and
     * sub-bucket (v >>> (h - SUB_BITS)) - SUB_BUCKETS, i.e. bucket r * SUB_BUCKETS + sub; values below SUB_BUCKETS
     * are exact in range 0. A percentile reports the upper edge of the bucket it falls in, capped by the maximum.
     */

    private static final int SUB_BITS = 5;
    private static final int SUB_BUCKETS = 1 << SUB_BITS;
    private static final int RANGES = 64 - SUB_BITS + 1;

    private final long[] counts = new long[RANGES * SUB_BUCKETS];
    private long total;
    private long max;

    /** @param nanos a duration, at least 0 (negative values count as 0) */
    void record(long nanos) {
        long v = Math.max(nanos, 0);
        counts[index(v)]++;
        total++;
        max = Math.max(max, v);
    }

    /** Adds every count of {@code other} to this one. */
    void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        total += other.total;
        max = Math.max(max, other.max);
    }

    /** @return the number of recorded values */
    long count() {
        return total;
    }

    /** @return the largest recorded value, 0 if none */
    long max() {
        return max;
    }

    /**
     * @param quantile in (0, 1]
     * @return the smallest bucket upper edge at or below which that fraction of the values lies (capped at the
     *     maximum), 0 if nothing was recorded
     */
    long percentile(double quantile) {
        if (!(quantile > 0 && quantile <= 1)) {
            throw new IllegalArgumentException("quantile must be in (0, 1], was " + quantile);
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank && counts[i] > 0) {
                return Math.min(upperEdge(i), max);
            }
        }
        return max;
    }

    private static int index(long v) {
        if (v < SUB_BUCKETS) {
            return (int) v;
        }
        int h = 63 - Long.numberOfLeadingZeros(v);
        int range = h - SUB_BITS + 1;
        int sub = (int) (v >>> (h - SUB_BITS)) - SUB_BUCKETS;
        return range * SUB_BUCKETS + sub;
    }

    private static long upperEdge(int index) {
        int range = index / SUB_BUCKETS;
        int sub = index % SUB_BUCKETS;
        if (range == 0) {
            return sub;
        }
        int shift = range - 1;
        return (((long) (SUB_BUCKETS + sub + 1)) << shift) - 1;
    }
}
