package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * An upstream defect at the low end of {@code zfs_arc_meta_balance}'s range (a {@code uint} module parameter that
 * nothing bounds), read from the source when the R22 property first failed at a balance of 1 (docs/checks.md) and
 * shown here against the oracle: 2.2.11's {@code arc_evict_adj} (with #17255) scales the downward move by
 * {@code 100 / balance}, so with a balance below 100 it can exceed the fraction, and its own
 * {@code ASSERT3U(down, <=, frac)} fails; a release build, whose {@code ASSERT}s are empty, returns
 * {@code frac + up - down} wrapped past 0, which the spec (following a release build) reports. 2.2.0 scales the same
 * way and asserts nothing, and agrees with the spec.
 *
 * <p>The trace is the built-in {@code fraction-adaptation} with {@code zfs_arc_meta_balance=1}: the MRU ghost data hit
 * of operation 27 is folded in by the pass of operation 28.
 */
class MetaBalanceAssertionOracleTest {

    private static final String TRACE = BuiltinTraces.text("fraction-adaptation")
            .replaceFirst("(# conform: [^\n]*)\n", "$1\n# conform: zfs_arc_meta_balance=1\n");
    private static final int PASS = 28;

    @Test
    void zfs2211FailsItsAssertionWhereTheSpecWrapsArcMeta() {
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_2_11)) {
            OracleComparison.Result r = oracle.comparison().compare("meta-balance-1", TRACE, false);
            assertEquals(OracleOutput.Ending.CRASH, r.oracle().ending(), r.oracle().message());
            assertTrue(r.oracle().message().contains("down <= frac"), r.oracle().message());
            ConformanceSettings settings = r.trace().applySettings(ConformanceSettings.defaults(ZfsEngine.V2_2_0)
                    .withFixes(ZfsRelease.V2_2_11.fixes()));
            List<Map<String, Object>> spec = ConformanceFile.parse(ConformanceRun.of(r.trace(), settings, false)
                    .lines(), "spec").lines();
            BigInteger before = (BigInteger) spec.get(PASS - 1).get("arc_meta");
            BigInteger after = (BigInteger) spec.get(PASS).get("arc_meta");
            assertEquals(BigInteger.ONE.shiftLeft(30), before, "arc_meta before the pass");
            assertTrue(after.compareTo(BigInteger.ONE.shiftLeft(32)) > 0, "arc_meta wrapped past 0: " + after);
        }
    }

    /** The crash loses the oracle's buffered lines, so agreement up to the pass is checked on the trace without it. */
    @Test
    void zfs2211AgreesWithTheSpecUpToThePass() {
        StringBuilder prefix = new StringBuilder();
        int operations = 0;
        for (String line : TRACE.split("\n")) {
            boolean operation = !line.isBlank() && !line.startsWith("#");
            if (operation && ++operations == PASS) {
                break;
            }
            prefix.append(line).append('\n');
        }
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_2_11)) {
            OracleComparison.Result r = oracle.comparison().compare("meta-balance-1", prefix.toString(), true);
            assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
            assertTrue(r.agrees(), r.describe());
            assertEquals(PASS, r.oracle().lines().size(), "the header and the operations before the pass");
        }
    }

    @Test
    void zfs220AgreesWithTheSpecAtBalance1() {
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_2_0)) {
            OracleComparison.Result r = oracle.comparison().compare("meta-balance-1", TRACE, true);
            assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
            assertTrue(r.agrees(), r.describe());
        }
    }
}
