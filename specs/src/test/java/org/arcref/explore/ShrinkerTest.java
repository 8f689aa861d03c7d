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
                x -> List.of(), () -> false);
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
        }, x -> List.of(), () -> false);
        assertEquals(List.of(40, 60), shrunk);
    }

    @Test
    void stopsWhenAskedWithTheSmallestFoundSoFar() {
        int[] calls = {0};
        List<Integer> shrunk = new Shrinker(10_000).shrink(HUNDRED, l -> {
            calls[0]++;
            return l.contains(95);
        }, x -> List.of(), () -> calls[0] >= 1);
        assertEquals(50, shrunk.size(), "the first candidate (without 0..49) reproduces, then it stops");
        assertTrue(shrunk.contains(95));
    }

    @Test
    void replacesElementsBySimplerOnesThatStillFail() {
        List<Integer> shrunk = new Shrinker(10_000).shrink(List.of(9, 40, 7),
                l -> l.stream().mapToInt(i -> i).sum() >= 40, x -> x > 0 ? List.of(0, x / 2) : List.of(),
                () -> false);
        assertEquals(List.of(40), shrunk, "9 and 7 removed; 40 cannot be halved");
        List<Integer> halved = new Shrinker(10_000).shrink(List.of(100), l -> l.get(0) >= 30,
                x -> x > 0 ? List.of(0, x / 2) : List.of(), () -> false);
        assertEquals(List.of(50), halved, "100 -> 50; 25 would no longer fail");
    }
}
