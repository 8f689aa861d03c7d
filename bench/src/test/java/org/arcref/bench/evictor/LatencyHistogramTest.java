package org.arcref.bench.evictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void smallValuesAreExactAndLargeOnesWithinOneThirtySecond() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 1000; v++) {
            h.record(v);
        }
        h.record(10_000_000);
        assertEquals(1001, h.count());
        assertEquals(10_000_000, h.max());
        long p50 = h.percentile(0.5);
        assertTrue(p50 >= 501 && p50 <= 501 + 501 / 32 + 1, "p50 of 1..1000 and one outlier was " + p50);
        long p99 = h.percentile(0.99);
        assertTrue(p99 >= 991 && p99 <= 991 + 991 / 32 + 1, "p99 was " + p99);
        assertEquals(10_000_000, h.percentile(1.0));
        LatencyHistogram single = new LatencyHistogram();
        single.record(10);
        assertEquals(10, single.percentile(1.0));
    }

    @Test
    void mergingAddsCountsAndKeepsTheMaximum() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        a.record(5);
        b.record(7);
        b.record(-3);
        a.add(b);
        assertEquals(3, a.count());
        assertEquals(7, a.max());
        assertEquals(0, a.percentile(0.1));
    }

    @Test
    void badQuantileIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LatencyHistogram().percentile(0));
        assertEquals("quantile must be in (0, 1], was 0.0", e.getMessage());
    }
}
