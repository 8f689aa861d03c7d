package org.arcref.aggsum;

/**
 * A deliberately wrong reader of an aggsum, for proving that property D2 can fail: the aggsum itself is correct,
 * but it reports its lower bound as its upper bound, so a caller that means to read the upper bound (ZFS's
 * {@code arc_p} growth check in {@code arc_get_data_impl}, and {@code arc_adapt}'s growth check) reads the lower
 * one. Test sources only.
 */
public final class LowerBoundAsUpperAggSum extends AggSum {

    private LowerBoundAsUpperAggSum(long initialValue) {
        super(initialValue, AggSumLayout.forThisMachine(), false);
    }

    /** @param initialValue the initial value @return a per-CPU aggsum of this machine's layout, misreporting */
    public static AggSum create(long initialValue) {
        return new LowerBoundAsUpperAggSum(initialValue);
    }

    @Override
    public long upperBound() {
        return lowerBound();
    }
}
