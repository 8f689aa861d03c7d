package org.arcref.aggsum;

/**
 * The fields of one {@code aggsum_bucket}, kept in a superclass so that {@link AggSumBucket}'s padding is laid
 * out after them (HotSpot places a superclass's fields before its subclass's).
 */
abstract class BucketFields {
    /** {@code asc_delta}: the change this bucket holds and the core bounds do not. Guarded by the bucket's monitor. */
    long delta;
    /**
     * {@code asc_borrowed}: the headroom borrowed from the core, in both directions. Written only with the core
     * lock and the bucket's monitor both held, so either one suffices to read it.
     */
    long borrowed;
    /** Fast-path adds through this bucket, for experiments. Guarded by the bucket's monitor. */
    long fastPathAdds;
}
