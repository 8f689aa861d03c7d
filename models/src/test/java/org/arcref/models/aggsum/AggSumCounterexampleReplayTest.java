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
 * <p>Same start as the model: initial value 11 (the model's INIT for 2 threads of 2 operations: its large negative
 * delta 8 plus 3), one bucket, so that both threads share it. The amounts differ where the model scales the borrow
 * down: a slow-path add of 3 borrows {@code 3 << 1 = 6} in the model and {@code 3 << 4 = 48} in Java, one of -8
 * borrows 16 and 128. The range of values a read may see is the same, and so is the bound a broken variant reads,
 * up to that borrow (11 in the first two trails; 11 plus the borrow in the third: 27 in the model, 139 here). The
 * thread the model calls T0 or T1 is named in each step; the test's own thread plays the one that is not held.
 */
class AggSumCounterexampleReplayTest {
    private static final long INIT = 11;
    /** The model's large negative delta ({@code NEG}). */
    private static final long NEG = 8;

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
        assertEquals(INIT, read.value(), "as in the model, T1 reads upperBound() = 11, below the least value 14");
    }

    /**
     * T0: add(3), slow path (the bucket has borrowed nothing), held after it released the bucket's lock with the
     * core lock still held. T1: add(3), fast path inside T0's new borrow; then upperBound(). T1's add completed, T0's
     * is in flight, so V is 14 or 17 and A5 asks {@code upperBound() >= 14}.
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
    @DisplayName("M1 A5 on the SKIP_BORROW_CHECK trail: AggSum's lower bound covers the large subtraction")
    void a5HoldsOnTheSkippedBorrowCheckTrail() {
        Read read = skippedBorrowCheckTrail(AggSum.create(INIT, AggSumLayout.singleBucket()));
        assertTrue(read.keepsA5(), read.toString());
        assertEquals(INIT - NEG - 128, read.value(), "the add borrowed 128 on the slow path");
    }

    @Test
    @DisplayName("M1 A5 on the SKIP_BORROW_CHECK trail: the unchecked fast path leaves the lower bound above the value")
    void a5FailsForSkippedBoundCheckAggSum() {
        Read read = skippedBorrowCheckTrail(SkippedBoundCheckAggSum.create(INIT, AggSumLayout.singleBucket()));
        assertFalse(read.keepsA5(), read.toString());
        assertEquals(INIT, read.value(), "as in the model, lowerBound() = 11, above the value 3");
    }

    /** T0: add(-8), then lowerBound(). No other thread: V is 3, and A5 asks {@code lowerBound() <= 3}. */
    private static Read skippedBorrowCheckTrail(AggSum sum) {
        sum.add(-NEG);
        return Read.lower(sum.lowerBound(), INIT - NEG, INIT - NEG);
    }

    @Test
    @DisplayName("M1 A5, A4 on the STALE_COMPARE trail: AggSum's compare re-reads the bounds under the lock")
    void a5HoldsOnTheStaleCompareTrail() throws Exception {
        StaleCompareOutcome outcome = staleCompareTrail(AggSum.create(INIT, AggSumLayout.singleBucket()));
        assertEquals(-1, outcome.compare(), "compare(11) with V = 3");
        assertTrue(outcome.read().keepsA5(), outcome.read().toString());
        assertEquals(INIT - NEG, outcome.read().value(), "the flush left lower == upper == V");
    }

    @Test
    @DisplayName("M1 A5, A4 (and A2) on the STALE_COMPARE trail: a compare that flushes from stale bounds loses T0's"
            + " add")
    void a5FailsForStaleBoundCompareAggSum() throws Exception {
        StaleCompareOutcome outcome = staleCompareTrail(
                StaleBoundCompareAggSum.create(INIT, AggSumLayout.singleBucket()));
        assertEquals(1, outcome.compare(), "the stale flush answers +1 for V = 3 < 11 (A4 broken)");
        assertFalse(outcome.read().keepsA5(), outcome.read().toString());
        assertEquals(INIT + 128, outcome.read().value(), "as in the model (11 + 16 = 27 there), the lower bound is the"
                + " stale 11 plus T0's borrow, above V = 3");
    }

    /** What T1's compare answered in the STALE_COMPARE trail, and T0's lower-bound read after it. */
    private record StaleCompareOutcome(int compare, Read read) { }

    /**
     * T1: compare(11) reads upper = 11 and lower = 11 without a lock, cannot decide (11 is not above 11) and is
     * held before the core lock. T0: add(-8), slow path, completes. T1 goes on: takes the core lock, flushes and
     * answers. T0: lowerBound(). Both operations of T0 are complete, so V = 3 and A5 asks
     * {@code lowerBound() <= 3}. (In the trail T0 reads between T1's two stores; here after compare returns:
     * the lower bound is the same.)
     */
    private StaleCompareOutcome staleCompareTrail(AggSum sum) throws Exception {
        try (AggSumPause pause = AggSumPause.beforeCompareTakesCoreLock(sum)) {
            Future<Integer> t1 = other.submit((Callable<Integer>) () -> sum.compare(INIT));
            pause.awaitArrival();
            sum.add(-NEG);
            pause.release();
            int answer = t1.get(10, TimeUnit.SECONDS);
            return new StaleCompareOutcome(answer, Read.lower(sum.lowerBound(), INIT - NEG, INIT - NEG));
        }
    }
}
