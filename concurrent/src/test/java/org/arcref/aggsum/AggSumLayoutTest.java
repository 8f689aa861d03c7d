package org.arcref.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AggSumLayoutTest {

    @ParameterizedTest(name = "{0} CPUs -> shift {1}, {2} buckets")
    @CsvSource({"1,0,1", "2,0,2", "11,0,11", "12,1,6", "13,1,7", "47,1,24", "48,2,12", "191,2,48",
            "192,3,24", "767,3,96", "768,4,48", "3071,4,192"})
    @DisplayName("aggsum_init: shift = highbit64(ncpus/6)/2, buckets = ((ncpus-1)>>shift)+1 (fact sheet a.2)")
    void bucketRuleMatchesTheTableOfTheFactSheet(int ncpus, int shift, int buckets) {
        assertEquals(new AggSumLayout(buckets, shift), AggSumLayout.forCpus(ncpus));
    }

    @Test
    @DisplayName("A6: the borrow grows to exactly the wanted amount when that is not smaller")
    void borrowGrowsToTheWantedAmount() {
        assertEquals(160 - 16, AggSumLayout.borrowChange(160, 16));
        assertEquals(0, AggSumLayout.borrowChange(16, 16));
    }

    @Test
    @DisplayName("A6: otherwise it shrinks by a quarter of the excess, truncating towards zero as C does")
    void borrowShrinksByAQuarterOfTheExcessWithTruncation() {
        assertEquals(-400, AggSumLayout.borrowChange(1600, 3200));
        assertEquals(-2, AggSumLayout.borrowChange(1, 10), "(1 - 10) / 4 truncates to -2, floor would be -3");
    }

    @Test
    @DisplayName("A6: a borrow is |delta| << (4 + bucketShift)")
    void borrowIsScaledByTheShift() {
        assertEquals(10 << 4, new AggSumLayout(1, 0).borrowFor(-10));
        assertEquals(10 << 6, new AggSumLayout(3, 2).borrowFor(10));
    }

    @Test
    @DisplayName("B1: the largest bucket shift, 59, is accepted: its borrow shift 4 + 59 = 63 is a valid shift of a long")
    void theLargestBucketShiftIsAccepted() {
        AggSumLayout widest = new AggSumLayout(1, AggSumLayout.MAX_BUCKET_SHIFT);
        assertEquals(59, widest.bucketShift());
        assertEquals(Long.MIN_VALUE, widest.borrowFor(1), "1 << 63");
    }

    @Test
    @DisplayName("B1: bad layouts are rejected with the argument, the rule and the value")
    void badInputNamesArgumentRuleAndValue() {
        assertEquals("numBuckets must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> new AggSumLayout(0, 0)).getMessage());
        assertEquals("bucketShift must be in [0, 59], was -1",
                assertThrows(IllegalArgumentException.class, () -> new AggSumLayout(1, -1)).getMessage());
        assertEquals("bucketShift must be in [0, 59], was 60",
                assertThrows(IllegalArgumentException.class, () -> new AggSumLayout(1, 60)).getMessage());
        assertEquals("ncpus must be >= 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> AggSumLayout.forCpus(0)).getMessage());
        assertEquals("layout must not be null",
                assertThrows(IllegalArgumentException.class, () -> AggSum.create(0, null)).getMessage());
    }
}
