package org.arcref.aggsum;

/**
 * A deliberately broken aggsum for proving that the checks can fail: its compare trusts the bounds it read
 * before taking the core lock and starts flushing from them. When a slow-path add completes in between, the
 * compare writes back bounds that have lost that add (A2, A4 broken). Test sources only.
 */
public final class StaleBoundCompareAggSum extends AggSum {

    private StaleBoundCompareAggSum(long initialValue, AggSumLayout layout) {
        super(initialValue, layout, false);
    }

    /** Same signature as {@link AggSum#create(long, AggSumLayout)}, for tests that choose a variant by name. */
    public static AggSum create(long initialValue, AggSumLayout layout) {
        return new StaleBoundCompareAggSum(initialValue, layout);
    }

    @Override
    int compareLocked(long seenLower, long seenUpper, long target) {
        synchronized (core) {
            return flushLocked(seenLower, seenUpper, target, true);
        }
    }
}
