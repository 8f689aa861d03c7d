package org.arcref.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AggSumSlotsTest {

    @Test
    @DisplayName("with two buckets, slot 0 adds through bucket 0 and slot 1 through bucket 1")
    void slotsZeroAndOneHomeOnBucketsZeroAndOne() {
        AggSum sum = AggSum.create(100, new AggSumLayout(2, 0));
        AggSumSlots.add(sum, 0, 1);
        assertEquals(16, sum.buckets[0].borrowed, "slot 0's slow path borrows 1 << 4 into bucket 0");
        assertEquals(0, sum.buckets[1].borrowed);
        AggSumSlots.add(sum, 1, 2);
        AggSumSlots.add(sum, 1, 3);
        assertEquals(16, sum.buckets[0].borrowed);
        assertEquals(32, sum.buckets[1].borrowed, "slot 1's slow path borrows 2 << 4 into bucket 1");
        assertEquals(3, sum.buckets[1].delta, "slot 1's second add stays in bucket 1's borrow");
        assertEquals(106, sum.value());
    }
}
