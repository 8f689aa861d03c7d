package org.arcref.arc;

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
