package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.arcref.conformance.Setting;
import org.arcref.explore.Explorer;
import org.arcref.explore.Random22Scenario;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * A served trace whose worker aborts in the middle of an output line (2.2.11's {@code arc_evict_adj} asserts
 * {@code down <= frac}, which a {@code zfs_arc_meta_balance} of 1 breaks; the worker's buffered output is lost and the
 * last block it wrote ends inside a line) ends as a crash naming the ASSERT: its output holds the whole lines only,
 * none merged into the {@code @end} line, so that a comparison with the spec diverges at the first line the oracle
 * did not write and says why, and the server goes on with the next trace.
 */
class ServedCrashTest {

    @Test
    void aWorkerAbortedMidLineEndsItsTraceAsACrashAndTheServerGoesOn() {
        String crashing = Random22Scenario.generate(Explorer.trySeed(1, 9),
                s -> s.with(Setting.ZFS_ARC_META_BALANCE, 1L), null, null).text();
        String next = Random22Scenario.generate(Explorer.trySeed(1, 0), s -> s, null, null).text();
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_2_11)) {
            OracleComparison.Result crashed = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> oracle.comparison().compare("balance-1", crashing, false));
            OracleOutput output = crashed.oracle();
            assertEquals(OracleOutput.Ending.CRASH, output.ending(), output.message());
            assertTrue(output.message().contains("down <= frac"), output.message());
            assertFalse(output.lines().isEmpty(), "the worker wrote the header and some operations");
            for (String line : output.lines()) {
                assertTrue(line.startsWith("{") && line.endsWith("}"), "a whole line: " + line);
            }
            assertFalse(crashed.agrees());
            assertEquals(output.lines().size() + 1, crashed.divergence().line(), crashed.describe());
            assertTrue(crashed.describe().endsWith("; the oracle crashed: " + output.message()), crashed.describe());
            OracleComparison.Result after = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> oracle.comparison().compare("next", next, false));
            assertEquals(OracleOutput.Ending.OK, after.oracle().ending(), after.oracle().message());
            assertTrue(after.agrees(), after.describe());
        }
    }
}
