package org.arcref.specs.policy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.arcref.policy.check.C1Checker;
import org.arcref.specs.trace.SharedTraces;
import org.arcref.trace.TraceReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * C1 at every step of every LIRS trace of {@code traces/lirs}, at a small, a middle and a large cache size. The pages
 * are renumbered densely first (ARC only compares pages for equality, so this changes nothing) so the
 * checker can index arrays by page.
 */
class CanonicalArcC1TracesTest {

    private static final int[] CAPACITIES = {16, 128, 1024};

    static Stream<Arguments> tracesAndCapacities() {
        return Arrays.stream(SharedTraces.LIRS_NAMES)
                .flatMap(name -> Arrays.stream(CAPACITIES).mapToObj(capacity -> Arguments.of(name, capacity)));
    }

    @ParameterizedTest(name = "C1 at every step of {0} with c={1}")
    @MethodSource("tracesAndCapacities")
    void c1HoldsAtEveryStepOfTrace(String name, int capacity) {
        int[] requests = denselyRenumbered(TraceReader.read(SharedTraces.lirs(name)));
        int keySpace = Arrays.stream(requests).max().orElse(-1) + 1;
        new C1Checker(capacity, keySpace, "trace " + name).replay(requests);
    }

    /** @return the requests with the i-th distinct page renamed i */
    private static int[] denselyRenumbered(long[] pages) {
        Map<Long, Integer> numbers = new HashMap<>();
        int[] dense = new int[pages.length];
        for (int i = 0; i < pages.length; i++) {
            dense[i] = numbers.computeIfAbsent(pages[i], page -> numbers.size());
        }
        return dense;
    }
}
