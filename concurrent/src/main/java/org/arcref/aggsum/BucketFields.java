package org.arcref.aggsum;

/**
 * The fields of one {@code aggsum_bucket}, kept in a superclass so that {@link AggSumBucket}'s padding is laid
 * out after them (HotSpot places a superclass's fields before its subclass's).
 */
abstract class BucketFields {
    /** {@code asc_lock}: 0 when free, 1 when held; accessed only through {@link AggSumBucket}'s VarHandle. */
    int locked;
    /** {@code asc_delta}: the change this bucket holds and the core bounds do not. Guarded by the bucket lock. */
    long delta;
    /**
     * {@code asc_borrowed}: the headroom borrowed from the core, in both directions. Written only with the core
     * lock and the bucket lock both held, so either one suffices to read it.
     */
    long borrowed;
    /** Fast-path adds through this bucket, for experiments. Guarded by the bucket lock. */
    long fastPathAdds;
}
