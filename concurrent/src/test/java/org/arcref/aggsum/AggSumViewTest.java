package org.arcref.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The read-only view reads what its aggsum reads; {@link AggSum#create(long)} takes this machine's layout; the
 * pause seam is passed each point a test may hold a thread at.
 */
class AggSumViewTest {

    @Test
    void theViewReadsWhatItsAggSumReads() {
        AggSum sum = AggSum.create(1000, AggSumLayout.forCpus(8));
        sum.add(5);
        sum.add(-3);
        AggSumView view = sum.view();
        assertNotEquals(sum.lowerBound(), sum.upperBound(), "set-up: a bucket holds a borrow, the bounds differ");
        assertEquals(sum.lowerBound(), view.lowerBound());
        assertEquals(sum.upperBound(), view.upperBound());
        assertSame(sum.layout(), view.layout());
        assertEquals(sum.counters(), view.counters());
        assertEquals(sum.toString(), view.toString());
        assertEquals(1002, view.value(), "the exact value, buckets flushed");
        assertEquals(1002, sum.lowerBound(), "flushed through the view: the bounds meet");
        assertEquals(1002, sum.upperBound());
    }

    @Test
    void createTakesTheLayoutOfThisMachine() {
        AggSumLayout expected = AggSumLayout.forCpus(Runtime.getRuntime().availableProcessors());
        assertEquals(expected, AggSumLayout.forThisMachine());
        assertEquals(expected, AggSum.create(7).layout());
        assertEquals(7, AggSum.create(7).value());
    }

    @Test
    void thePauseSeamIsPassedEachPoint() {
        AggSum sum = AggSum.create(0, AggSumLayout.forCpus(8));
        List<AggSum.Pause> reached = new ArrayList<>();
        sum.pauses = reached::add;
        sum.add(5); // no borrow yet: the slow path
        assertEquals(List.of(AggSum.Pause.SLOW_PATH_BUCKET_RELEASED), reached);
        sum.compare(3); // bounds [0, 5 + borrow] straddle 3: undecided without the core lock
        assertEquals(List.of(AggSum.Pause.SLOW_PATH_BUCKET_RELEASED, AggSum.Pause.COMPARE_BEFORE_CORE_LOCK), reached);
    }
}
