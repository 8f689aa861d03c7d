package org.arcref.specs.bounded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.specs.lincheck.ExploredSchedules.Exploration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The exhaustion claim of {@link Exhaustive} shown on a toy: a writer stores 1, 2, 3 into a volatile field while a
 * reader reads it three times. The reader sees 1, 2, 3 in exactly one order of those six accesses (each read
 * between the write it sees and the next), which needs five thread switches, more than the switch-bounded Lincheck
 * runs of this project reach.
 */
class ExhaustionToyTest {
    /** The interleavings in which the reader saw 1, 2, 3; written only in ignored sections. */
    private static final AtomicInteger SEEN_IN_ORDER = new AtomicInteger();
    /** Far more than the toy's tree, so that only exhaustion ends the run. */
    private static final int BUDGET = 10_000;

    private static final class Cell {
        volatile int value;
    }

    /** One invocation: the writer on a new thread, the reader on the scenario's thread. */
    private static void toy(boolean failOnTheRareOrder) {
        ExploredSchedules.count();
        Cell cell = new Cell();
        Thread writer = new Thread(() -> {
            cell.value = 1;
            cell.value = 2;
            cell.value = 3;
        });
        writer.start();
        int first = cell.value;
        int second = cell.value;
        int third = cell.value;
        Exhaustive.join(writer);
        if (first == 1 && second == 2 && third == 3) {
            ExploredSchedules.ghost(() -> SEEN_IN_ORDER.incrementAndGet());
            if (failOnTheRareOrder) {
                throw new IllegalStateException("the reader saw 1, 2, 3");
            }
        }
    }

    @Test
    @DisplayName("exhaustion: the tree is used up before the budget and holds the rare order in exactly two schedules")
    void theTreeHoldsTheRareOrderOnce() {
        SEEN_IN_ORDER.set(0);
        Exploration run = Exhaustive.exhaust("toy", BUDGET, () -> toy(false));
        // One order of the six accesses; Lincheck's schedules also differ in whether the writer's end (a switch
        // point) comes before or after the third read, so that order is two of its schedules.
        assertEquals(2, SEEN_IN_ORDER.get(), "schedules in which the reader saw 1, 2, 3: " + run);
        assertTrue(run.completeBound() >= 5, "the rare order needs five switches: " + run);
    }

    @RepeatedTest(3)
    @DisplayName("exhaustion: a failure in the one rare interleaving is found in every run")
    void theRareOrderIsFoundEveryTime() {
        AssertionError failure = assertThrows(AssertionError.class,
                () -> Exhaustive.exhaust("toy failing in the rare order", BUDGET, () -> toy(true)));
        assertTrue(failure.getMessage().contains("the reader saw 1, 2, 3"), failure.getMessage());
    }

    @Test
    @DisplayName("exhaustion: a run in which the checker meets no choice between threads proves nothing and fails")
    void aRunWithoutChoicesFails() {
        AssertionError failure = assertThrows(AssertionError.class, () -> Exhaustive.exhaust("toy on one thread",
                BUDGET, () -> {
                    ExploredSchedules.count();
                    Cell cell = new Cell();
                    cell.value = 1;
                    if (cell.value != 1) {
                        throw new IllegalStateException("lost a write");
                    }
                }));
        assertTrue(failure.getMessage().contains("met no choice between threads"), failure.getMessage());
    }
}
