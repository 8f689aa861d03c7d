package org.arcref.models.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumCounters;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.aggsum.AggSumPause;
import org.arcref.aggsum.SkippedBoundCheckAggSum;
import org.arcref.aggsum.StaleBoundCompareAggSum;
import org.arcref.aggsum.StoreAfterUnlockAggSum;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Model M1's counterexamples, replayed deterministically in Java: for each broken variant of {@code aggsum.pml}, the
 * interleaving of spin's shortest counterexample ({@link AggSumModelTest} pins it line by line) is forced with
 * {@link AggSumPause} on the matching broken Java variant, which must break the property exactly as the model
 * did, and on {@link AggSum}, which must keep it. Model and code then agree on each bug.
 *
 * <p>Same start as the model: initial value 4 (the model's INIT for 2 threads of 2 operations), one bucket, so
 * that both threads share it. The amounts differ where the model scales the borrow down: a slow-path add of 3
 * borrows {@code 3 << 1 = 6} in the model and {@code 3 << 4 = 48} in Java. The range of values a read may see is
 * the same, and so is the bound a broken variant reads, up to that borrow (4 in the first two trails; 4 plus the
 * borrow in the third: 10 in the model, 52 here). The thread the model calls T0 or T1 is named in each step; the
 * test's own thread plays the one that is not held.
 */
class AggSumCounterexampleReplayTest {
    private static final long INIT = 4;

    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopTheOtherThread() {
        other.shutdownNow();
    }

    /**
     * A bound read and A5's verdict on it: the adds the read may see give values in [least, greatest]; an upper
     * bound must not be below least (compared unsigned, as {@code upperBound()} is), a lower bound not above
     * greatest.
     */
    private record Read(boolean upper, long value, long least, long greatest) {
        static Read upper(long value, long least, long greatest) {
            return new Read(true, value, least, greatest);
        }

        static Read lower(long value, long least, long greatest) {
            return new Read(false, value, least, greatest);
        }

        boolean keepsA5() {
            return upper ? Long.compareUnsigned(value, least) >= 0 : value <= greatest;
        }

        @Override
        public String toString() {
            return (upper ? "upperBound()" : "lowerBound()") + " = " + value + "; the adds it may see give V in ["
                    + least + ", " + greatest + "]";
        }
    }

    @Test
    @DisplayName("M1 A5 on the STORE_AFTER_UNLOCK trail: AggSum's upper bound covers the completed add")
    void a5HoldsOnTheStoreAfterUnlockTrail() throws Exception {
        Read read = storeAfterUnlockTrail(AggSum.create(INIT, AggSumLayout.singleBucket()));
        assertTrue(read.keepsA5(), read.toString());
        assertEquals(INIT + 3 + 48, read.value(), "T0 stored its bounds before it released the bucket");
    }

    @Test
    @DisplayName("M1 A5 on the STORE_AFTER_UNLOCK trail: 2.1.1's order lets T1 read an upper bound below its add")
    void a5FailsForStoreAfterUnlockAggSum() throws Exception {
        Read read = storeAfterUnlockTrail(StoreAfterUnlockAggSum.create(INIT, AggSumLayout.singleBucket()));
        assertFalse(read.keepsA5(), read.toString());
        assertEquals(INIT, read.value(), "as in the model, T1 reads upperBound() = 4, below the least value 7");
    }

    /**
     * T0: add(3), slow path (the bucket has borrowed nothing), held after it released the bucket's lock with the
     * core lock still held. T1: add(3), fast path inside T0's new borrow; then upperBound(). T1's add completed, T0's
     * is in flight, so V is 7 or 10 and A5 asks {@code upperBound() >= 7}.
     */
    private Read storeAfterUnlockTrail(AggSum sum) throws Exception {
        try (AggSumPause pause = AggSumPause.afterSlowPathReleasesBucket(sum)) {
            Future<?> t0 = other.submit(() -> sum.add(3));
            pause.awaitArrival();
            sum.add(3);
            long upper = sum.upperBound();
            pause.release();
            t0.get(10, TimeUnit.SECONDS);
            AggSumCounters counters = sum.counters();
            assertEquals(1, counters.slowPathAdds(), "T0 took the slow path, as in the trail");
            assertEquals(1, counters.fastPathAdds(), "T1 took the fast path, as in the trail");
            assertEquals(INIT + 6, sum.value(), "both adds counted once");
            return Read.upper(upper, INIT + 3, INIT + 6);
        }
    }

    @Test
    @DisplayName("M1 A5 on the SKIP_BORROW_CHECK trail: AggSum's upper bound covers the add")
    void a5HoldsOnTheSkippedBorrowCheckTrail() {
        Read read = skippedBorrowCheckTrail(AggSum.create(INIT, AggSumLayout.singleBucket()));
        assertTrue(read.keepsA5(), read.toString());
        assertEquals(INIT + 3 + 48, read.value(), "the add borrowed 48 on the slow path");
    }

    @Test
    @DisplayName("M1 A5 on the SKIP_BORROW_CHECK trail: the unchecked fast path leaves the upper bound below the add")
    void a5FailsForSkippedBoundCheckAggSum() {
        Read read = skippedBorrowCheckTrail(SkippedBoundCheckAggSum.create(INIT, AggSumLayout.singleBucket()));
        assertFalse(read.keepsA5(), read.toString());
        assertEquals(INIT, read.value(), "as in the model, upperBound() = 4, below the value 7");
    }

    /** T0: add(3), then upperBound(). No other thread: V is 7, and A5 asks {@code upperBound() >= 7}. */
    private static Read skippedBorrowCheckTrail(AggSum sum) {
        sum.add(3);
        return Read.upper(sum.upperBound(), INIT + 3, INIT + 3);
    }

    @Test
    @DisplayName("M1 A5, A2 on the STALE_COMPARE trail: AggSum's compare re-reads the bounds under the lock")
    void a5HoldsOnTheStaleCompareTrail() throws Exception {
        Read read = staleCompareTrail(AggSum.create(INIT, AggSumLayout.singleBucket()));
        assertTrue(read.keepsA5(), read.toString());
        assertEquals(INIT + 3, read.value(), "the flush left lower == upper == V");
    }

    @Test
    @DisplayName("M1 A5, A2 on the STALE_COMPARE trail: a compare that flushes from stale bounds loses T0's add")
    void a5FailsForStaleBoundCompareAggSum() throws Exception {
        Read read = staleCompareTrail(StaleBoundCompareAggSum.create(INIT, AggSumLayout.singleBucket()));
        assertFalse(read.keepsA5(), read.toString());
        assertEquals(INIT + 48, read.value(),
                "as in the model (4 + 6 = 10 there), the lower bound is the stale 4 plus T0's borrow, above V = 7");
    }

    /**
     * T1: compare(4) reads upper = 4 and lower = 4 without a lock, cannot decide (4 is not above 4) and is held
     * before the core lock. T0: add(3), slow path, completes. T1 goes on: takes the core lock, flushes, answers
     * +1 (V = 7 > 4, right in both). T0: lowerBound(). Both adds are complete, so V = 7 and A5 asks
     * {@code lowerBound() <= 7}. (In the trail T0 reads between T1's two stores; here after compare returns:
     * the lower bound is the same.)
     */
    private Read staleCompareTrail(AggSum sum) throws Exception {
        try (AggSumPause pause = AggSumPause.beforeCompareTakesCoreLock(sum)) {
            Future<Integer> t1 = other.submit((Callable<Integer>) () -> sum.compare(4));
            pause.awaitArrival();
            sum.add(3);
            pause.release();
            assertEquals(1, t1.get(10, TimeUnit.SECONDS), "compare(4) with V = 7");
            return Read.lower(sum.lowerBound(), INIT + 3, INIT + 3);
        }
    }
}
