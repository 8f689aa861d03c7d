package org.arcref.aggsum;

import static org.arcref.fray.FrayExplorer.actors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.arcref.fray.FrayExplorer;
import org.arcref.fray.FrayExplorer.Budget;
import org.arcref.fray.FrayExplorer.Kind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model M1's properties (docs/formal-models.md, "M1 aggsum") checked on the real {@link AggSum} under Fray's
 * schedulers, in the one-bucket layout so that every thread shares the bucket and fast paths race slow paths and
 * flushes (ZFS {@code aggsum_add}, {@code aggsum_value}, {@code aggsum_compare}, {@code aggsum_lower_bound},
 * {@code aggsum_upper_bound}). The oracle is M1's: a {@link Ledger} of the adds each thread has begun and completed,
 * all of positive deltas, so the least value an operation may see is the initial value plus the adds completed
 * before it began, and the greatest the initial value plus the adds begun before it ended. Each scenario also runs
 * on the broken variants of the test sources, which it must catch within the CI schedule budget.
 */
@Timeout(60)
class FrayAggSumTest {
    /** Schedules per scenario and scheduler in the default build; {@code -Dfray.iterations} overrides it. */
    static final Budget BUDGET = new Budget(150, 4_000, 90);
    /** The budget a broken variant must be caught within. */
    static final Budget CATCH = new Budget(150, 4_000, 0);

    /** The adds each thread has begun and completed; the deltas are positive. */
    static final class Ledger {
        private final AtomicLong begun = new AtomicLong();
        private final AtomicLong completed = new AtomicLong();

        void add(AggSum sum, long delta) {
            begun.addAndGet(delta);
            sum.add(delta);
            completed.addAndGet(delta);
        }

        /** The least value any operation that begins now may see, less the initial value. */
        long completedBefore() {
            return completed.get();
        }

        /** The greatest value any operation that ended before this call may have seen, less the initial value. */
        long begunAfter() {
            return begun.get();
        }
    }

    /**
     * A5 with A1, A2 and A6 at quiescence: two threads share the bucket, each adds 10 (a slow path that borrows 160)
     * and 1000 (a slow path that re-borrows, or a fast path inside the other's new borrow), then reads both bounds
     * lock-free; each bound must bound a value the counter had during the read (M1's A5 assertions). After both,
     * A2: {@code lower = V - (d + B)} and {@code upper = V + (B - d)}; A1: {@code |d| <= B}; A6: the borrow never
     * exceeds what the largest delta asks for ({@code 1000 << 4}); then {@code value()} is V and empties the
     * bucket (A4). Catches 2.1.1's store after unlock ({@link StoreAfterUnlockAggSum}, M1's
     * {@code STORE_AFTER_UNLOCK}) and the skipped bound check ({@link SkippedBoundCheckAggSum}).
     */
    static void boundsOfSharedBucket(Supplier<AggSum> variant) {
        AggSum sum = variant.get();
        Ledger ledger = new Ledger();
        Runnable adder = () -> {
            ledger.add(sum, 10);
            ledger.add(sum, 1000);
            long lo = ledger.completedBefore();
            long upper = sum.upperBound();
            long lower = sum.lowerBound();
            long hi = ledger.begunAfter();
            assertTrue(Long.compareUnsigned(upper, lo) >= 0, "A5: upper bound " + Long.toUnsignedString(upper)
                    + " below " + lo + ", the adds completed before the read (" + sum + ")");
            assertTrue(lower <= hi, "A5: lower bound " + lower + " above " + hi + ", every add begun (" + sum + ")");
        };
        if (!actors(adder, adder)) {
            return;
        }
        long v = 2 * 1010;
        AggSumBucket b = sum.buckets[0];
        assertTrue(Math.abs(b.delta) <= b.borrowed, "A1: |delta| " + b.delta + " > borrowed " + b.borrowed);
        assertEquals(v - (b.delta + b.borrowed), sum.lowerBound(), "A2: lower bound at quiescence (" + sum + ")");
        assertEquals(v + (b.borrowed - b.delta), sum.upperBound(), "A2: upper bound at quiescence (" + sum + ")");
        assertTrue(b.borrowed <= 1000 << AggSumLayout.BORROW_SHIFT, "A6: borrowed " + b.borrowed
                + " exceeds what the largest delta asks for");
        assertEquals(v, sum.value(), "A1/A2: value() at quiescence (" + sum + ")");
        assertTrue(sum.lowerBound() == v && sum.upperBound() == v, "A4: value() leaves both bounds at V (" + sum + ")");
    }

    /**
     * A4: {@code compare(100)} and {@code value()} against two adders (10 then 1000 each) on the shared bucket; each
     * answer must fit the window of adds completed before it began and begun before it ended, and the final
     * {@code value()} must be the sum of every add. Catches a compare that flushes from the bounds it read before
     * taking the core lock ({@link StaleBoundCompareAggSum}, M1's {@code STALE_COMPARE}): a slow path that completes
     * in between is lost.
     */
    static void exactReadsAgainstAdds(Supplier<AggSum> variant) {
        AggSum sum = variant.get();
        Ledger ledger = new Ledger();
        Runnable adder = () -> {
            ledger.add(sum, 10);
            ledger.add(sum, 1000);
        };
        Runnable reader = () -> {
            long lo = ledger.completedBefore();
            int sign = sum.compare(100);
            long hi = ledger.begunAfter();
            assertTrue(sign == -1 ? lo < 100 : sign == 1 ? hi > 100 : lo <= 100 && 100 <= hi,
                    "A4: compare(100) = " + sign + " with the value within [" + lo + ", " + hi + "] (" + sum + ")");
            lo = ledger.completedBefore();
            long value = sum.value();
            hi = ledger.begunAfter();
            assertTrue(lo <= value && value <= hi, "A4: value() = " + value + " outside [" + lo + ", " + hi + "]");
        };
        if (!actors(adder, adder, reader)) {
            return;
        }
        assertEquals(2 * 1010, sum.value(), "A1/A2: value() after every add (" + sum + ")");
    }

    private static AggSum production() {
        return AggSum.create(0, AggSumLayout.singleBucket());
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("A5, A1, A2, A6: lock-free bounds of a shared bucket, and the bucket at quiescence")
    void boundsOfSharedBucket(Kind kind) {
        FrayExplorer.explore("aggsum-bounds", kind, BUDGET, () -> boundsOfSharedBucket(FrayAggSumTest::production))
                .assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("A4: compare and value against concurrent adds")
    void exactReadsAgainstAdds(Kind kind) {
        FrayExplorer.explore("aggsum-exact-reads", kind, BUDGET,
                () -> exactReadsAgainstAdds(FrayAggSumTest::production)).assertPassed();
    }

    @Test
    @DisplayName("A5 catches 2.1.1's bound store after the bucket unlock (StoreAfterUnlockAggSum)")
    void catchesStoreAfterUnlock() {
        FrayExplorer.assertCaught("aggsum-bounds-store-after-unlock", CATCH, () -> boundsOfSharedBucket(
                () -> StoreAfterUnlockAggSum.create(0, AggSumLayout.singleBucket())));
    }

    @Test
    @DisplayName("A5, A1 catch the skipped bound check (SkippedBoundCheckAggSum)")
    void catchesSkippedBoundCheck() {
        FrayExplorer.assertCaught("aggsum-bounds-skipped-check", CATCH, () -> boundsOfSharedBucket(
                () -> SkippedBoundCheckAggSum.create(0, AggSumLayout.singleBucket())));
    }

    @Test
    @DisplayName("A4 catches the compare that trusts its stale bounds (StaleBoundCompareAggSum)")
    void catchesStaleBoundCompare() {
        FrayExplorer.assertCaught("aggsum-exact-reads-stale-compare", CATCH, () -> exactReadsAgainstAdds(
                () -> StaleBoundCompareAggSum.create(0, AggSumLayout.singleBucket())));
    }
}
