package org.arcref.specs.arc;

import org.arcref.aggsum.AggSumLayout;
import org.arcref.aggsum.AggSumView;
import org.arcref.arc.ConcurrentArc;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcState;

/**
 * The per-step half of property D2 for one page-mode replay (demand reads of one page each, no holds, no writes,
 * plentiful memory): after every request it compares {@code arc_c}, {@code arc_p} and the cached size
 * ({@code anon + mru + mfu}) of a concurrent ARC whose {@code arc_size} is a per-CPU aggsum with the spec's, and
 * checks that every difference is one the aggsum's slack can explain.
 *
 * <p>The two differ only where the concurrent ARC reads a bound of {@code arc_size} and the spec the exact value,
 * and each bound read is biased one way: {@code arc_is_overflowing} reads the lower bound (the concurrent ARC sees
 * an overflow later, so it evicts later and holds more), {@code arc_adapt}'s growth check the upper bound
 * ({@code arc_c} grows more eagerly), the {@code arc_p} growth check the upper bound ({@code arc_p} grows less
 * often). Hence two checks:
 * <ol>
 *   <li><b>first divergence</b>: at the first request after which the two differ, the concurrent ARC holds at
 *       least as much, its {@code arc_c} is at least the spec's, and if only {@code arc_p} differs it is the
 *       smaller. In page mode every eviction pass brings the size down to {@code arc_c} whatever {@code arc_p} is
 *       (MRU gives at most the overflow, MFU the rest, and nothing is held), and {@code arc_evict_needed} is set
 *       later than the spec's and cleared only by a pass, so no slack can make the concurrent ARC hold less
 *       first. The check is only sound for such replays: with holds, anonymous buffers, batch limits and memory pressure, the number of eviction
 *       passes (who runs them, waiters or the evictor) differs too and moves the sizes either way;</li>
 *   <li><b>size at every step</b>: the cached sizes differ by at most the aggsum's largest possible gap plus the
 *       overflow allowance of {@code arc_is_overflowing} and one block, since both evict down to the same
 *       {@code arc_c} and the concurrent ARC notices an overflow at most one gap late.</li>
 * </ol>
 * After the first divergence {@code arc_p} and the per-state sizes drift apart through different ghost hits; that
 * drift is measured (the maximum is printed) but not bounded, because it compounds rather than tracks the slack.
 */
final class SlackDivergence {

    private final String run;
    private final long sizeBound;
    private long step;
    private long firstDivergence = -1;
    private long maxSizeDifference;
    private long maxPDifference;
    private long maxCDifference;
    private long maxGap;

    /**
     * @param run names the run in messages
     * @param sizeBound the largest allowed difference of cached sizes at any step
     */
    SlackDivergence(String run, long sizeBound) {
        this.run = run;
        this.sizeBound = sizeBound;
    }

    /**
     * @param blockSize the largest block the run reads
     * @param config the configuration of both
     * @param aggsum the concurrent ARC's aggsum, for its layout
     * @param threads how many threads add to the aggsum
     * @return the size bound of check 2: the largest gap, {@code 2 · (δ << (4 + bucketShift))} for each bucket that
     *     may hold a borrow (one for a single thread, which never finds its bucket's lock taken and so never moves;
     *     every bucket for several threads, which move on when they do), the overflow allowance
     *     {@code MAX(SPA_MAXBLOCKSIZE, arc_c_max >> zfs_arc_overflow_shift)} and one block
     */
    static long sizeBound(long blockSize, ArcConfig config, AggSumView aggsum, int threads) {
        int buckets = threads == 1 ? 1 : aggsum.layout().numBuckets();
        long gap = 2L * buckets * (blockSize << (AggSumLayout.BORROW_SHIFT + aggsum.layout().bucketShift()));
        return gap + Math.max(config.maxBlockSize(), config.cMax() >> config.tunables().overflowShift()) + blockSize;
    }

    /**
     * Compares the two after a request.
     *
     * @param specSize the spec's {@code arc_size}
     * @param specC the spec's {@code arc_c}
     * @param specP the spec's {@code arc_p}
     * @param arc the concurrent ARC after the same request, quiescent
     * @throws PropertyViolation of D2 naming the run and the step if a check fails
     */
    void afterStep(long specSize, long specC, long specP, ConcurrentArc<?> arc) {
        long size = cachedSize(arc);
        long dSize = size - specSize;
        long dC = arc.targetSize() - specC;
        long dP = arc.mruTarget() - specP;
        maxGap = Math.max(maxGap, arc.sizeAggsum().upperBound() - arc.sizeAggsum().lowerBound());
        if (firstDivergence < 0 && (dSize != 0 || dC != 0 || dP != 0)) {
            firstDivergence = step;
            if (dSize < 0 || dC < 0 || (dSize == 0 && dC == 0 && dP > 0)) {
                fail("the first divergence is against the slack's direction: size " + specSize + " -> " + size
                        + ", arc_c " + specC + " -> " + arc.targetSize() + ", arc_p " + specP + " -> "
                        + arc.mruTarget() + " (spec -> concurrent)");
            }
        }
        if (Math.abs(dSize) > sizeBound) {
            fail("cached sizes differ by " + dSize + " bytes, more than the slack bound " + sizeBound
                    + " (spec " + specSize + ", concurrent " + size + ")");
        }
        maxSizeDifference = Math.max(maxSizeDifference, Math.abs(dSize));
        maxCDifference = Math.max(maxCDifference, Math.abs(dC));
        maxPDifference = Math.max(maxPDifference, Math.abs(dP));
        step++;
    }

    /** @return the anon, MRU and MFU sizes of {@code arc}: the bytes it caches */
    private static long cachedSize(ConcurrentArc<?> arc) {
        return arc.stateSize(ArcState.ANON) + arc.stateSize(ArcState.MRU) + arc.stateSize(ArcState.MFU);
    }

    private void fail(String what) {
        throw new PropertyViolation(Property.D2, what + " (" + run + ", at request " + step + ")", "");
    }

    @Override
    public String toString() {
        return String.format("%s: %d requests, first divergence %s, largest differences: size %d, arc_c %d, "
                + "arc_p %d bytes (largest aggsum gap %d, size bound %d)", run, step,
                firstDivergence < 0 ? "none" : "after request " + firstDivergence, maxSizeDifference, maxCDifference,
                maxPDifference, maxGap, sizeBound);
    }
}
