package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * X1's walk for zfs-2.2.0's engine ({@link Walk22}) through the real arc.c: every transition out of every state of
 * depth 0 to {@link #depth()} - 1 (a state's first path and one operation the engine accepts, as a trace of its own)
 * gives the same conformance output, every header listed, as zfs-2.2.0's arc.c, and with the three switches as
 * zfs-2.2.11's, under {@link Walk22#ciSettings()} and {@link Walk22#ciAlphabet()}. The depth is 4 (24,413
 * transitions per release), 5 with {@code -Doracle.large=true} (113,136): each transition is a trace, and a 2.2
 * oracle runs each trace in a process of its own (arc.c's function-static state).
 */
class Walk22OracleTest {

    static int depth() {
        return Boolean.getBoolean("oracle.large") ? 5 : 4;
    }

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void everyTransitionAgreesWithArcC(ZfsRelease release) {
        ConformanceSettings settings = Walk22.ciSettings().withFixes(release.fixes());
        Walk22 walk = new Walk22(settings, Walk22.ciAlphabet(), depth()).run();
        long ops = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(release)) {
            int i = 0;
            for (List<Operation> t : walk.transitions()) {
                String text = ConformanceTrace.text(settings, t);
                String name = "walk-" + i++;
                OracleComparison.Result r = oracle.comparison().compare(name, text, true);
                assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), name + ": " + r.oracle().message());
                assertTrue(r.agrees(), () -> name + ": " + r.describe() + "\ntrace:\n" + text);
                ops += t.size();
            }
        }
        System.out.printf(Locale.ROOT, "walk of zfs-2.2.0's engine, zfs-%s: %d states to depth %d, %d transitions "
                + "(%d operations) agree with arc.c in %.1f s%n", release, walk.states(), depth(),
                walk.transitions().size(), ops, (System.nanoTime() - start) / 1e9);
        assertTrue(walk.transitions().size() > 1000, "the walk is not trivial: " + walk.transitions().size());
    }
}
