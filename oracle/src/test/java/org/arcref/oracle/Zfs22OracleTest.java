package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * zfs-2.2.0's engine against the real arc.c of zfs-2.2.0, and with every 2.2.x switch on against the unpatched
 * arc.c of zfs-2.2.11: 2,000 random traces of {@link Random22Traces} per release (20,000 with
 * {@code -Doracle.large=true}), every header listed, every field compared after every operation, no divergence.
 * Prints the compared operations per second.
 */
class Zfs22OracleTest {

    static final long SEED = 20_261_205L;
    static final int OPERATIONS = 300;

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void randomTracesAgreeWithArcC(ZfsRelease release) {
        long tries = Boolean.getBoolean("oracle.large") ? 20_000 : 2_000;
        long ops = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(release)) {
            for (long t = 0; t < tries; t++) {
                String text = Random22Traces.trace(SEED + t, OPERATIONS);
                String name = "random-" + (SEED + t);
                OracleComparison.Result r = oracle.comparison().compare(name, text, true);
                assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), name + ": " + r.oracle().message());
                assertTrue(r.agrees(), () -> name + ": " + r.describe() + "\ntrace:\n" + text);
                ops += r.trace().steps().size();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "oracle campaign, zfs-%s engine 2.2.0: seed %d, %d traces, %d operations "
                + "compared in %.1f s: %.0f operations/s%n", release, SEED, tries, ops, seconds, ops / seconds);
    }
}
