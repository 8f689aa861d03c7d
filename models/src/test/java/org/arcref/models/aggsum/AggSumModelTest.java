package org.arcref.models.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.arcref.models.SpinCheck;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Model M1, the aggsum protocol ({@code src/test/promela/aggsum.pml}; {@code docs/formal-models.md}, "M1 aggsum"),
 * checked by spin for every interleaving of a few threads, each running a few operations chosen from all of
 * {@code add} (deltas 1, -1, 3, and -8 once, by one thread), {@code lowerBound}, {@code upperBound}, {@code value}
 * and {@code compare}:
 * <ul>
 *   <li>the faithful model (our {@code AggSum}) keeps A1, A2, A4 and A5 in a complete search, at the default
 *       bounds and, with {@code -Dmodels.large=true}, at larger ones;</li>
 *   <li>each broken variant is refuted, and its shortest counterexample is exactly the interleaving that
 *       {@link AggSumCounterexampleReplayTest} forces on the matching Java variant (the model's own output is
 *       compared line by line, so a change of the model that changes the trail fails here until the replay
 *       follows).</li>
 * </ul>
 */
class AggSumModelTest {
    private static final String MODEL = "aggsum.pml";

    @ParameterizedTest(name = "{0} threads, {1} bucket(s), {2} operations each")
    @CsvSource({"2, 1, 2", "2, 2, 2", "3, 1, 1", "3, 2, 1"})
    @DisplayName("M1 A1, A2, A4, A5: the faithful model holds in every interleaving")
    void a1A2A4A5Hold(int threads, int buckets, int ops) {
        faithful(threads, buckets, ops).assertHolds();
    }

    @ParameterizedTest(name = "{0} threads, {1} bucket(s), {2} operations each")
    @CsvSource({"2, 1, 3", "2, 3, 2"})
    @DisplayName("M1 A1, A2, A4, A5 at larger bounds (-Dmodels.large=true)")
    void a1A2A4A5HoldAtLargerBounds(int threads, int buckets, int ops) {
        assumeTrue(Boolean.getBoolean("models.large"), "larger bounds run with -Dmodels.large=true");
        faithful(threads, buckets, ops).assertHolds();
    }

    @Test
    @DisplayName("M1 A5: spin refutes 2.1.1's order, bounds stored after the bucket unlock")
    void a5RefutedByStoreAfterUnlock() {
        assertEquals(List.of(
                "T0 add(3), bucket 0: delta 3 outside borrowed 0, slow path",
                "T0 takes the core lock, changes the borrow by 6",
                "T0 (core lock held) folds bucket 0, borrowed 6",
                "T0 releases the bucket lock",
                "T1 add(3), bucket 0: fast path, delta 3, borrowed 6",
                "T1 upperBound() = 11; the adds it may see give V in [14, 17]",
                "spin: text of failed assertion: assert(!(((upper>=0)&&(upper<lo))))"),
                shortestCounterexample("STORE_AFTER_UNLOCK"));
    }

    @Test
    @DisplayName("M1 A5 (and A1): spin refutes a fast path that skips the borrow check")
    void a5RefutedBySkippedBorrowCheck() {
        assertEquals(List.of(
                "T0 add(-8), bucket 0: fast path, delta -8, borrowed 0",
                "T0 lowerBound() = 11; the adds it may see give V in [3, 3]",
                "spin: text of failed assertion: assert((lower<=hi))"),
                shortestCounterexample("SKIP_BORROW_CHECK"));
    }

    @Test
    @DisplayName("M1 A5 (and A2): spin refutes a compare that flushes from the bounds it read before the lock")
    void a5RefutedByStaleCompare() {
        assertEquals(List.of(
                "T1 compare(11) reads upper = 11",
                "T1 compare(11) reads lower = 11",
                "T0 add(-8), bucket 0: delta -8 outside borrowed 0, slow path",
                "T0 takes the core lock, changes the borrow by 16",
                "T0 (core lock held) folds bucket 0, borrowed 16",
                "T0 stores lower = -13",
                "T0 stores upper = 19",
                "T0 releases the bucket lock",
                "T0 releases the core lock; add(-8) returns",
                "T1 compare(11) takes the core lock, flushes from lower 11, upper 11",
                "T1 folds bucket 0: delta 0, borrowed 16, lb = 27",
                "T1 folds bucket 0: delta 0, borrowed 16, ub = -5",
                "T1 stores lower = 27",
                "T0 lowerBound() = 27; the adds it may see give V in [3, 3]",
                "spin: text of failed assertion: assert((lower<=hi))"),
                shortestCounterexample("STALE_COMPARE"));
    }

    @Test
    @DisplayName("M1 A3: spin refutes a flush that folds a bucket without its lock, which only the model with one step"
            + " per bucket access can express")
    void a3RefutedByAFlushWithoutTheBucketLock() {
        assertEquals(List.of(
                "T0 add(-8), bucket 0: delta -8 outside borrowed 0, slow path",
                "T0 takes the core lock, changes the borrow by 16",
                "T0 (core lock held) folds bucket 0, borrowed 16",
                "T0 stores lower = -13",
                "T0 stores upper = 19",
                "T0 releases the bucket lock",
                "T0 releases the core lock; add(-8) returns",
                "T1 value() takes the core lock: lower -13, upper 19",
                "T1 folds bucket 0: delta 0, borrowed 16, lb = 3",
                "T0 add(3), bucket 0: fast path, delta 3, borrowed 16",
                "T1 folds bucket 0: delta 3, borrowed 16, ub = 6",
                "spin: text of failed assertion: assert((lb==ub))"),
                shortestCounterexample("FLUSH_NO_BUCKET_LOCK"));
    }

    @Test
    @DisplayName("M1 A6: the quarter-shrink of the borrow is reached at the default bounds (spin refutes 'never')")
    void a6TheBorrowShrinksSomewhere() {
        assertEquals(List.of(
                "T1 add(3), bucket 0: delta 3 outside borrowed 0, slow path",
                "T0 add(-8), bucket 0: delta -8 outside borrowed 0, slow path",
                "T0 takes the core lock, changes the borrow by 16",
                "T0 (core lock held) folds bucket 0, borrowed 16",
                "T0 stores lower = -13",
                "T0 stores upper = 19",
                "T0 releases the bucket lock",
                "T0 releases the core lock; add(-8) returns",
                "T1 takes the core lock, changes the borrow by -2",
                "spin: text of failed assertion: assert((borrow>=0))"),
                shortestCounterexample("NEVER_SHRINKS"));
    }

    @Test
    @DisplayName("M1 A6: spin refutes a re-borrow that grows where it should shrink (the quarter of the excess with"
            + " its sign flipped), which no bound property sees")
    void a6RefutedByAShrinkThatGrows() {
        List<String> account = shortestCounterexample("SHRINK_GROWS");
        assertTrue(account.stream().anyMatch(l -> l.startsWith("spin: text of failed assertion")
                        && l.contains("((old+borrow)<=old)")),
                "the refutation must be A6's assertion:\n" + String.join("\n", account));
    }

    private static SpinCheck faithful(int threads, int buckets, int ops) {
        return SpinCheck.safety(MODEL).define("THREADS", threads).define("BUCKETS", buckets).define("OPS", ops);
    }

    /**
     * Refutes a variant at 2 threads, 1 bucket, 2 operations each, and returns the model's own account of the
     * shortest counterexample: its {@code M1:} lines and the failed assertion.
     */
    private static List<String> shortestCounterexample(String variant) {
        String trail = faithful(2, 1, 2).define(variant).shortest().assertRefuted();
        String told = trail.substring(0, trail.indexOf("the steps (spin -t -p -g):"));
        return told.lines().map(String::strip)
                .filter(l -> l.startsWith("M1: ") || l.startsWith("spin: text of failed assertion"))
                .map(l -> l.startsWith("M1: ") ? l.substring(4) : l)
                .toList();
    }
}
