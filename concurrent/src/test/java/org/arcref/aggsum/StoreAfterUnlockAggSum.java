package org.arcref.aggsum;

/**
 * ZFS 2.1.1's order of the slow path's last steps, which {@link AggSum} deliberately does not follow (README,
 * "Deliberate deviations"): it releases the bucket's lock and only then stores the new bounds. In that window
 * another thread can complete a fast-path add inside the borrow just granted and then read bounds that reflect
 * neither the borrow nor its own add, so an upper bound below the value its add produced (A5 broken; model M1's
 * variant {@code STORE_AFTER_UNLOCK}). Test sources only.
 */
public final class StoreAfterUnlockAggSum extends AggSum {

    private StoreAfterUnlockAggSum(long initialValue, AggSumLayout layout) {
        super(initialValue, layout, false);
    }

    /** Same signature as {@link AggSum#create(long, AggSumLayout)}, for tests that choose a variant by name. */
    public static AggSum create(long initialValue, AggSumLayout layout) {
        return new StoreAfterUnlockAggSum(initialValue, layout);
    }

    @Override
    void storeBoundsAndUnlock(AggSumBucket bucket, long toLower, long toUpper) {
        bucket.unlock();
        pause(Pause.SLOW_PATH_BUCKET_RELEASED);
        addToBounds(toLower, toUpper);
    }
}
