package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each hand-written transition test's scenario, as an op trace (src/test/resources/transitions: the scenarios of
 * specs' AccessTransitionTest, OverwriteTransitionTest, ScatterAbdTransitionTest, HeldPrescientHitTest,
 * MemoryThresholdTest, BoundaryScenariosTest and GhostTrimTest, each file naming its test, and the hash-lock stripe
 * the oracle found), gives the spec's output from the real arc.c, every header listed.
 */
class TransitionTracesOracleTest {

    private static Oracles.Session oracle;

    @BeforeAll
    static void start() {
        oracle = Oracles.released2_1_1();
    }

    @AfterAll
    static void stop() {
        oracle.close();
    }

    static Stream<String> traces() {
        return TransitionTraces.all().keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("traces")
    void theOracleWritesTheSpecsOutput(String name) {
        OracleComparison.Result r = oracle.comparison().compare(name, TransitionTraces.all().get(name), true);
        assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
        assertTrue(r.agrees(), r.describe());
    }

    @Test
    void theTransitionTracesAreThere() {
        Map<String, String> all = TransitionTraces.all();
        assertEquals(41, all.size(), "transition traces: " + all.keySet());
    }
}
