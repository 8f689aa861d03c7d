package org.arcref.aggsum;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A deliberately broken aggsum whose lock-free bound reads have lost their ordering: {@link #lowerBound()} and
 * {@link #upperBound()} read {@code as_lower_bound} and {@code as_upper_bound} as plain fields (a plain
 * {@link VarHandle} read of the same fields) instead of volatile ones, the one-word change a port makes by dropping
 * {@code volatile} (or reading a C field without {@code READ_ONCE}/an atomic load). Everything else is
 * {@link AggSum}'s. A reader that polls a bound may then never see an add that completed (A5): the JIT may hoist
 * the plain load out of the polling loop. Test sources only.
 */
public final class PlainBoundReadsAggSum extends AggSum {

    private static final VarHandle LOWER;
    private static final VarHandle UPPER;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(AggSum.class, MethodHandles.lookup());
            LOWER = lookup.findVarHandle(AggSum.class, "lowerBound", long.class);
            UPPER = lookup.findVarHandle(AggSum.class, "upperBound", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PlainBoundReadsAggSum(long initialValue, AggSumLayout layout) {
        super(initialValue, layout, false);
    }

    /** Same signature as {@link AggSum#create(long, AggSumLayout)}, for tests that choose a variant by name. */
    public static AggSum create(long initialValue, AggSumLayout layout) {
        return new PlainBoundReadsAggSum(initialValue, layout);
    }

    @Override
    public long lowerBound() {
        return (long) LOWER.get(this);
    }

    @Override
    public long upperBound() {
        return (long) UPPER.get(this);
    }
}
