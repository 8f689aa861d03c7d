package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The shrinker keeps a failing sub-sequence, 1-minimal, and stops when asked. */
class ShrinkerTest {

    private static final List<Integer> HUNDRED = IntStream.range(0, 100).boxed().toList();

    @Test
    void shrinksToTheElementsTheFailureNeedsInOrder() {
        Shrinker shrinker = new Shrinker(10_000);
        List<Integer> shrunk = shrinker.shrink(HUNDRED, l -> l.contains(17) && l.contains(83) && l.size() >= 3,
                () -> false);
        assertEquals(3, shrunk.size(), shrunk.toString());
        assertTrue(shrunk.indexOf(17) < shrunk.indexOf(83), "order kept: " + shrunk);
        assertTrue(shrinker.evaluations() < 400, "evaluations: " + shrinker.evaluations());
    }

    @Test
    void aFailureThatNeedsAnEarlierElementBeforeALaterOneKeepsBoth() {
        List<Integer> shrunk = new Shrinker(10_000).shrink(HUNDRED, l -> {
            int a = l.indexOf(40);
            int b = l.indexOf(60);
            return a >= 0 && b > a;
        }, () -> false);
        assertEquals(List.of(40, 60), shrunk);
    }

    @Test
    void stopsWhenAskedWithTheSmallestFoundSoFar() {
        int[] calls = {0};
        List<Integer> shrunk = new Shrinker(10_000).shrink(HUNDRED, l -> {
            calls[0]++;
            return l.contains(95);
        }, () -> calls[0] >= 1);
        assertEquals(50, shrunk.size(), "the first candidate (without 0..49) reproduces, then it stops");
        assertTrue(shrunk.contains(95));
    }
}
