package org.arcref.aggsum;

/**
 * An aggsum whose lock-free bounds straddle its exact value by amounts the test sets, as a per-CPU aggsum's do
 * while buckets hold borrowed amounts (fact sheet a.8): {@link #lowerBound()} is the exact value less
 * {@code below}, {@link #upperBound()} the exact value plus {@code above}, while {@link #value()} and
 * {@link #compare(long)} stay exact. A caller that reads one of the four where 2.1.1 reads another then sees a
 * different number on the other side of its threshold, which is how {@code BoundReadsTest} pins every
 * {@code arc_size} read of the concurrent ARC. Test sources only.
 *
 * <p>Unlike a real per-CPU aggsum the bounds here do not depend on which thread added what, so a single-threaded
 * test decides exactly where each bound lies; the counters ({@link #counters()}) still count every
 * {@code value} and {@code compare} call.
 */
public final class SkewedBoundsAggSum extends AggSum {

    private volatile long below;
    private volatile long above;

    private SkewedBoundsAggSum() {
        super(0, AggSumLayout.singleBucket(), true);
    }

    /** @return an aggsum of value 0 whose bounds equal its value until {@link #skew} is called */
    public static SkewedBoundsAggSum create() {
        return new SkewedBoundsAggSum();
    }

    /**
     * Sets how far the bounds lie from the exact value from now on.
     *
     * @param below how much the lower bound lies under the value, at least 0
     * @param above how much the upper bound lies over the value, at least 0
     */
    public void skew(long below, long above) {
        if (below < 0 || above < 0) {
            throw new IllegalArgumentException("below and above must be >= 0, were " + below + " and " + above);
        }
        this.below = below;
        this.above = above;
    }

    /** The exact value, read without counting a {@code value()} call. */
    private long exact() {
        return super.lowerBound();
    }

    @Override
    public long lowerBound() {
        return exact() - below;
    }

    @Override
    public long upperBound() {
        return exact() + above;
    }
}
