package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.arcref.conformance.ConformanceTrace;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in conformance trace gives the same conformance output, header and every header listing included,
 * from the spec and from the real zfs-2.1.1 arc.c (all switches on).
 */
class BuiltinTracesOracleTest {

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

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtins")
    void theOracleWritesTheSpecsOutput(String name) {
        OracleComparison.Result r = oracle.comparison().compare("builtin:" + name, BuiltinTraces.text(name), true);
        assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
        assertTrue(r.agrees(), r.describe());
        assertEquals(r.trace().steps().size() + 1, r.oracle().lines().size(), "a line per operation");
    }

    @Test
    void thereAreTwelveBuiltinTraces() {
        assertEquals(12, builtins().count(), "the built-in traces this test covers: " + List.of(builtins()));
    }
}
