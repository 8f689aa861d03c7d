package org.arcref.specs.bounded;

import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An experiment, not a check: runs each zthr scenario (default and large) on the real zthr with {@link MonitorLock}s
 * until its tree is used up or {@code -Dbudget} invocations ran (50,000 by default), and prints what ran;
 * {@code -Donly} selects scenarios by a regular expression on their names. It fails whenever a tree is not used up.
 */
class ZthrMeasureTest {
    @BeforeAll
    static void initialiseLoggingOutsideTheModelChecker() {
        ZthrExhaustiveTest.initialiseLoggingOutsideTheModelChecker();
    }

    static Stream<ZthrExhaustiveTest.Scenario> scenarios() {
        return Stream.concat(ZthrExhaustiveTest.scenarios(), ZthrExhaustiveTest.largeScenarios())
                .map(Exhaustive.Bounded::scenario).distinct()
                .filter(scenario -> scenario.toString().matches(System.getProperty("only", ".*")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void measure(ZthrExhaustiveTest.Scenario scenario) {
        long start = System.nanoTime();
        try {
            Exhaustive.exhaust("measure " + scenario, Integer.getInteger("budget", 50_000),
                    () -> ZthrExhaustiveTest.run(scenario, ZthrExhaustiveTest.Variant.REAL_ON_MONITOR_LOCKS));
        } finally {
            System.out.println("measure " + scenario + ": " + (System.nanoTime() - start) / 1_000_000 + " ms");
        }
    }
}
