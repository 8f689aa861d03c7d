package org.arcref.aggsum;

/**
 * A deliberately broken aggsum with 2.1.1's bound-store order: its slow path stores the core bounds after dropping
 * the bucket lock, so another thread on the same bucket can complete a fast-path add inside the new borrow and
 * then read bounds that include neither that borrow nor its add (A5 broken). Test sources only.
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
    boolean storesBoundsAfterBucketUnlock() {
        return true;
    }
}
