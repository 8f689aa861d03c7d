package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.EnumSet;
import java.util.Map;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each harness switch hides a deviation the spec makes on purpose (README, "Deliberate deviations" and "Not
 * modelled"); turned off alone, arc.c as it is diverges from the spec exactly where docs/oracle.md says.
 */
class SwitchesOracleTest {

    @ParameterizedTest(name = "{0} off: {1} op {2}, {3}")
    @CsvSource({
        "EXACT_AGGSUM, eviction, 5, arc_p, 2560, 2048",
        "NO_HEADER_MEMORY, basic, 1, arc_size, 1024, 1448",
        "NO_CHUNK_WASTE, overwrite, 14, arc_size, 8192, 10240",
    })
    void turnedOffTheSwitchShowsTheDeviation(OracleProcess.Switch off, String trace, long op, String field,
            String spec, String zfs) {
        try (OracleProcess process = OracleProcess.start(Oracles.released(ZfsRelease.V2_1_1), Map.of(off, false))) {
            OracleComparison.Result r = new OracleComparison(process, EnumSet.noneOf(QuirkFix.class))
                    .compare("builtin:" + trace, BuiltinTraces.text(trace), false);
            assertFalse(r.agrees(), off + " off must diverge on " + trace);
            assertEquals(op + 1, r.divergence().line(), r.describe());
            assertEquals(field, r.divergence().field(), r.describe());
            assertEquals(spec, r.divergence().expected(), r.describe());
            assertEquals(zfs, r.divergence().actual(), r.describe());
        }
    }
}
