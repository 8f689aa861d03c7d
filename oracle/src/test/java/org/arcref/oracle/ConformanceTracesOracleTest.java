package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.stream.Stream;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The written traces against the real arc.c of every zfs-2.1 release the spec follows (all switches on), every header
 * listed: the spec following the release ({@link ZfsRelease#fixes()} applied) and the release's own, unpatched
 * arc.c write the same conformance output, header included (so the header's {@code zfs} and {@code fixes} too), for
 * <ul>
 *   <li>every built-in conformance trace, and</li>
 *   <li>each hand-written transition test's scenario as an op trace (src/test/resources/transitions: the scenarios
 *       of reference's AccessTransitionTest, OverwriteTransitionTest, ScatterAbdTransitionTest and
 *       HeldPrescientHitTest and of specs' MemoryThresholdTest, BoundaryScenariosTest and GhostTrimTest, each file
 *       naming its module and test, and the hash-lock stripe the oracle found).</li>
 * </ul>
 * The runs go release by release, one oracle process at a time (the large built-ins hold gigabytes of buffers).
 */
class ConformanceTracesOracleTest {

    private static ZfsRelease running;
    private static Oracles.Session oracle;

    @AfterAll
    static void stop() {
        if (oracle != null) {
            oracle.close();
        }
    }

    /** @return the releases of zfs-2.1.1's engine, whose traces these are (Zfs22OracleTest has zfs-2.2.0's) */
    static Stream<ZfsRelease> releases211() {
        return Arrays.stream(ZfsRelease.values()).filter(r -> r.engine() == ZfsEngine.V2_1_1);
    }

    static Stream<Arguments> builtins() {
        return releases211().flatMap(r -> ConformanceTrace.builtinNames().stream()
                .map(name -> Arguments.of(r, name)));
    }

    static Stream<Arguments> transitions() {
        return releases211().flatMap(r -> TransitionTraces.all().keySet().stream()
                .map(name -> Arguments.of(r, name)));
    }

    @ParameterizedTest(name = "zfs-{0}: builtin:{1}")
    @MethodSource("builtins")
    void theOracleWritesTheSpecsOutputForABuiltinTrace(ZfsRelease release, String name) {
        agrees(release, "builtin:" + name, BuiltinTraces.text(name));
    }

    @ParameterizedTest(name = "zfs-{0}: {1}")
    @MethodSource("transitions")
    void theOracleWritesTheSpecsOutputForATransitionTrace(ZfsRelease release, String name) {
        agrees(release, name, TransitionTraces.all().get(name));
    }

    @Test
    void theTracesAreAllThere() {
        assertEquals(43, ConformanceTrace.builtinNames().size(), "built-in traces");
        assertEquals(41, TransitionTraces.all().size(), "transition traces: " + TransitionTraces.all().keySet());
    }

    private static void agrees(ZfsRelease release, String name, String text) {
        OracleComparison.Result r = of(release).comparison().compare(name, text, true);
        assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
        assertTrue(r.agrees(), r.describe());
        assertEquals(r.trace().steps().size() + 1, r.oracle().lines().size(), "a line per operation");
    }

    private static synchronized Oracles.Session of(ZfsRelease release) {
        if (running != release) {
            stop();
            oracle = null;
            oracle = Oracles.session(release);
            running = release;
        }
        return oracle;
    }
}
