package org.arcref.specs.policy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.arcref.policy.check.C1Checker;

/**
 * C1 on random request sequences: small capacities and key spaces a few times larger, so every case of
 * Figure 4 (hits, ghost hits in B1 and B2, both branches of case IV) happens often. jqwik prints the
 * seed of a failing try and shrinks the sequence; the checker names the step.
 */
class CanonicalArcC1Properties {

    /** A capacity and requests over keys {@code 0 … keySpace-1}. */
    record Scenario(int capacity, int keySpace, int[] requests) {
        @Override
        public String toString() {
            return "c=" + capacity + ", keySpace=" + keySpace + ", requests=" + Arrays.toString(requests);
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        return Combinators.combine(Arbitraries.integers().between(1, 8), Arbitraries.integers().between(1, 4))
                .flatAs((capacity, spread) -> {
                    int keySpace = capacity * spread + 1;
                    return Arbitraries.integers().between(0, keySpace - 1).list().ofMaxSize(300)
                            .map(requests -> new Scenario(capacity, keySpace, toArray(requests)));
                });
    }

    @Property(tries = 2000)
    @Label("C1: canonical ARC keeps DBL(2c)'s directory and the size bounds after every request")
    void c1HoldsAfterEveryRequest(@ForAll("scenarios") Scenario scenario) {
        new C1Checker(scenario.capacity(), scenario.keySpace(), "random scenario " + scenario)
                .replay(scenario.requests());
    }

    private static int[] toArray(List<Integer> requests) {
        return requests.stream().mapToInt(Integer::intValue).toArray();
    }
}
