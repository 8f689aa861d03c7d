package org.arcref.specs.aggsum;

import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * The Lincheck scenario of an aggsum: {@code add}, {@code value} and {@code compare} against a plain counter
 * ({@link SequentialCounter}), with a validation function that checks A2/A5 at quiescence. Two buckets by default,
 * so that threads may share one (fast path racing a borrow) or not (compare's early break); subclasses may choose
 * another layout. The value stays far above
 * zero, where the C code's unsigned comparisons are exact. Subclasses substitute a broken variant.
 */
public class AggSumOperations {
    static final long INITIAL_VALUE = 1000;

    private final AggSum sum;

    /** Counts one invocation ({@link ExploredSchedules}): Lincheck builds a new instance for every one. */
    public AggSumOperations() {
        ExploredSchedules.count();
        sum = newSum(INITIAL_VALUE, layout());
    }

    /** The bucket layout: two buckets; called from the constructor, so overrides must not use instance state. */
    protected AggSumLayout layout() {
        return new AggSumLayout(2, 0);
    }

    /** The aggsum under test; called from the constructor, so overrides must not use instance state. */
    protected AggSum newSum(long initialValue, AggSumLayout layout) {
        return AggSum.create(initialValue, layout);
    }

    @Operation
    public void add(@Param(gen = LongGen.class, conf = "-20:40") long delta) {
        sum.add(delta);
    }

    @Operation
    public long value() {
        return sum.value();
    }

    @Operation
    public int compare(@Param(gen = LongGen.class, conf = "990:1030") long target) {
        return sum.compare(target);
    }

    /** A2, A5 at quiescence: the bounds enclose the exact value. */
    @Validate
    public void boundsEncloseTheExactValue() {
        long lower = sum.lowerBound();
        long upper = sum.upperBound();
        long exact = sum.value();
        if (lower > exact || exact > upper) {
            throw new PropertyViolation(Property.A5, "at quiescence lower=" + lower + ", value=" + exact
                    + ", upper=" + upper, "");
        }
    }
}
