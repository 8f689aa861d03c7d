package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.zfs.QuirkFix;
import org.junit.jupiter.api.Test;

/**
 * The oracle can fail where a quirk's fix changes arc.c: built with the #14137 fix sed-applied to arc.c
 * ({@code oracle/scripts/fixes/ARC_P_GROWTH_CAP_14137.sed}), it diverges from the 2.1.1 spec on the quirk's built-in
 * trace exactly where the spec run with {@code --fix ARC_P_GROWTH_CAP_14137} diverges from the 2.1.1 spec, and it
 * agrees with the fixed spec on every line, header included.
 */
class QuirkFixedOracleTest {

    private static final String TRACE = "quirk-arc-p-growth";
    private static final QuirkFix FIX = QuirkFix.ARC_P_GROWTH_CAP_14137;

    @Test
    void theFixedOracleDivergesWhereTheFixDoesAndAgreesWithTheFixedSpec() throws IOException {
        String text = BuiltinTraces.text(TRACE);
        ConformanceTrace trace = ConformanceTrace.read(new BufferedReader(new StringReader(text)), TRACE);
        List<String> released = spec(trace, Set.of());
        List<String> fixed = spec(trace, Set.of(FIX));
        Divergence fixMakes = ConformanceComparer.firstOperationDivergence(file(released), file(fixed)).orElseThrow(
                () -> new AssertionError("the fix changes nothing on " + TRACE));
        try (Oracles.Session oracle = Oracles.session(Oracles.fixed(FIX), EnumSet.of(FIX))) {
            OracleOutput zfs = oracle.process().run(TRACE, text, false);
            assertEquals(OracleOutput.Ending.OK, zfs.ending(), zfs.message());
            Divergence d = ConformanceComparer.firstOperationDivergence(file(released), file(zfs.lines()))
                    .orElseThrow(() -> new AssertionError("the fixed oracle agrees with the 2.1.1 spec"));
            assertEquals(fixMakes.line(), d.line(), "the operation where the fix first shows: " + d);
            assertEquals(fixMakes.field(), d.field(), d.toString());
            assertEquals(fixMakes.actual(), d.actual(), "the fixed oracle's value is the fixed spec's: " + d);
            OracleComparison.Result agreement = oracle.comparison().compare(TRACE, text, true);
            assertTrue(agreement.agrees(), agreement.describe());
        }
        try (Oracles.Session oracle = Oracles.released2_1_1()) {
            assertTrue(oracle.comparison().compare(TRACE, text, false).agrees(), "the released oracle keeps the quirk");
        }
    }

    private static List<String> spec(ConformanceTrace trace, Set<QuirkFix> fixes) {
        ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults().withFixes(fixes));
        return ConformanceRun.of(trace, settings, false).lines();
    }

    private static ConformanceFile file(List<String> lines) {
        return ConformanceFile.parse(lines, "output");
    }
}
