package org.arcref.specs.aggsum;

/**
 * The sequential specification of an aggsum's exact operations: a plain counter. {@code compare} compares as
 * unsigned 64-bit values, as {@code aggsum_compare} does.
 */
public class SequentialCounter {
    private long value = AggSumOperations.INITIAL_VALUE;

    public void add(long delta) {
        value += delta;
    }

    public long value() {
        return value;
    }

    public int compare(long target) {
        return Integer.signum(Long.compareUnsigned(value, target));
    }
}
