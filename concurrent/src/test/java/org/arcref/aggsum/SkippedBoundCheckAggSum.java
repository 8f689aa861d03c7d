package org.arcref.aggsum;

/**
 * A deliberately broken aggsum for proving that the checks can fail: its fast path skips the bound check, so
 * every add stays in its bucket unborrowed, the core bounds never move (A1, A2, A5 broken) and {@code value()}
 * skips the unborrowed buckets. Test sources only.
 */
public final class SkippedBoundCheckAggSum extends AggSum {

    private SkippedBoundCheckAggSum(long initialValue, AggSumLayout layout) {
        super(initialValue, layout, false);
    }

    /** Same signature as {@link AggSum#create(long, AggSumLayout)}, for tests that choose a variant by name. */
    public static AggSum create(long initialValue, AggSumLayout layout) {
        return new SkippedBoundCheckAggSum(initialValue, layout);
    }

    @Override
    boolean withinBorrow(long newDelta, long borrowed) {
        return true;
    }
}
