package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The wait-time histogram: exact count and max, percentiles at most 12.5 % above the true value. */
class WaitTimesTest {

    @Test
    void percentilesAreUpperBoundsWithinAnEighth() {
        WaitTimes w = new WaitTimes();
        for (long v = 1; v <= 10_000; v++) {
            w.record(v * 1000);
        }
        assertEquals(10_000, w.count());
        assertEquals(10_000_000, w.max());
        for (double q : new double[] {0.01, 0.5, 0.9, 0.99}) {
            long truth = (long) Math.ceil(q * 10_000) * 1000;
            long p = w.percentile(q);
            assertTrue(p >= truth && p <= truth * 1.125, "q=" + q + ": " + p + " vs " + truth);
        }
        assertEquals(10_000_000, w.percentile(1));
    }

    @Test
    void smallValuesAreExactAndBucketsTileTheLine() {
        WaitTimes w = new WaitTimes();
        for (long v : new long[] {0, 3, 3, 15, -5}) {
            w.record(v);
        }
        assertEquals(3, w.percentile(0.6));
        assertEquals(0, w.percentile(0.2));
        for (long v = 1; v < 1 << 20; v = v * 3 / 2 + 1) {
            int b = WaitTimes.bucketOf(v);
            assertTrue(WaitTimes.lowerBound(b) <= v && v <= WaitTimes.upperBound(b), "v=" + v);
            assertEquals(WaitTimes.upperBound(b) + 1, WaitTimes.lowerBound(b + 1), "bucket " + b);
        }
        assertThrows(IllegalArgumentException.class, () -> w.percentile(1.5));
    }

    @Test
    void aQuantileEndingExactlyAtABucketIsThatBucket() {
        WaitTimes w = new WaitTimes();
        for (long v : new long[] {5, 5, 7, 9}) {
            w.record(v);
        }
        assertEquals(5, w.percentile(0.5), "rank 2 is the last of the two 5s, not the 7 after them");
        assertEquals(5, w.percentile(0), "quantile 0 is the smallest duration (rank 1), not bucket 0");
        assertEquals(0, new WaitTimes().percentile(0.5), "nothing recorded");
    }

    @Test
    void bucketsListTheNonEmptyOnesInOrder() {
        WaitTimes w = new WaitTimes();
        for (long v : new long[] {100, 3, 0, 17, 3, 16}) {
            w.record(v);
        }
        // 16 and 17 share [16, 17]: above 15 a bucket is 1/8 of its power of two, here 2 wide; 100 is in
        // [96, 103], the fifth eighth of [64, 128).
        long[][] expected = {{0, 0, 1}, {3, 3, 2}, {16, 17, 2}, {96, 103, 1}};
        assertArrayEquals(expected, w.buckets());
        assertEquals(100, w.percentile(1), "the last bucket's bound is capped at the maximum");
    }

    @Test
    void mergingIsRecordingInOneHistogram() {
        WaitTimes a = new WaitTimes();
        WaitTimes b = new WaitTimes();
        WaitTimes all = new WaitTimes();
        for (long v = 1; v <= 1000; v++) {
            (v % 3 == 0 ? a : b).record(v * 37);
            all.record(v * 37);
        }
        b.record(-3);
        all.record(-3);
        a.addAll(b);
        assertEquals(1001, a.count());
        assertEquals(37_000, a.max());
        for (double q : new double[] {0, 0.001, 0.5, 0.99, 1}) {
            assertEquals(all.percentile(q), a.percentile(q), "q=" + q);
        }
        assertEquals(0, a.percentile(0), "the negative value counts as 0");
        assertEquals(668, b.count(), "the other histogram is unchanged");
    }
}
