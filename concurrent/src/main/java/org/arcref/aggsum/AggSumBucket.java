package org.arcref.aggsum;

/**
 * One {@code aggsum_bucket_t}: a pending delta and a borrowed amount guarded by this object's monitor
 * ({@code asc_lock}), padded so that two buckets never share a cache line ({@code ____cacheline_aligned}).
 *
 * <p>The monitor word sits in the object header, next to the fields, so one thread's fast path touches one line;
 * the 128 bytes after the fields keep the next bucket (or any neighbour) off that line and its adjacent-line
 * prefetch pair.
 */
final class AggSumBucket extends BucketFields {
    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}
