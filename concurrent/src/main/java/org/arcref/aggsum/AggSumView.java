package org.arcref.aggsum;

/**
 * A read-only view of an {@link AggSum}: its reads, and no {@link AggSum#add}. Whoever owns the counter hands this
 * out so that readers (tests, checkers, tools) cannot change it. Each read has the contract of the
 * {@link AggSum} method of the same name; {@link #value()} flushes buckets as {@code aggsum_value} does.
 */
public final class AggSumView {

    private final AggSum sum;

    AggSumView(AggSum sum) {
        this.sum = sum;
    }

    /** @return {@link AggSum#lowerBound()} */
    public long lowerBound() {
        return sum.lowerBound();
    }

    /** @return {@link AggSum#upperBound()} */
    public long upperBound() {
        return sum.upperBound();
    }

    /** @return {@link AggSum#value()} */
    public long value() {
        return sum.value();
    }

    /** @return {@link AggSum#layout()} */
    public AggSumLayout layout() {
        return sum.layout();
    }

    /** @return {@link AggSum#counters()} */
    public AggSumCounters counters() {
        return sum.counters();
    }

    @Override
    public String toString() {
        return sum.toString();
    }
}
