package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.arcref.conformance.ConformanceTrace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The written traces against the real arc.c (all switches on), every header listed: spec and oracle write the same
 * conformance output, header included, for
 * <ul>
 *   <li>every built-in conformance trace, and</li>
 *   <li>each hand-written transition test's scenario as an op trace (src/test/resources/transitions: the scenarios
 *       of specs' AccessTransitionTest, OverwriteTransitionTest, ScatterAbdTransitionTest, HeldPrescientHitTest,
 *       MemoryThresholdTest, BoundaryScenariosTest and GhostTrimTest, each file naming its test, and the hash-lock
 *       stripe the oracle found).</li>
 * </ul>
 */
class ConformanceTracesOracleTest {

    private static Oracles.Session oracle;

    @BeforeAll
    static void start() {
        oracle = Oracles.released2_1_1();
    }

    @AfterAll
    static void stop() {
        oracle.close();
    }

    static Stream<String> builtins() {
        return ConformanceTrace.builtinNames().stream();
    }

    static Stream<String> transitions() {
        return TransitionTraces.all().keySet().stream();
    }

    @ParameterizedTest(name = "builtin:{0}")
    @MethodSource("builtins")
    void theOracleWritesTheSpecsOutputForABuiltinTrace(String name) {
        agrees("builtin:" + name, BuiltinTraces.text(name));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void theOracleWritesTheSpecsOutputForATransitionTrace(String name) {
        agrees(name, TransitionTraces.all().get(name));
    }

    @Test
    void theTracesAreAllThere() {
        assertEquals(27, builtins().count(), "built-in traces");
        assertEquals(41, transitions().count(), "transition traces: " + TransitionTraces.all().keySet());
    }

    private static void agrees(String name, String text) {
        OracleComparison.Result r = oracle.comparison().compare(name, text, true);
        assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
        assertTrue(r.agrees(), r.describe());
        assertEquals(r.trace().steps().size() + 1, r.oracle().lines().size(), "a line per operation");
    }
}
