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
 * last block it wrote ends inside a line) ends as a crash naming the ASSERT, with no line merged into the
 * {@code @end} line, and the server goes on with the next trace.
 */
class ServedCrashTest {

    @Test
    void aWorkerAbortedMidLineEndsItsTraceAsACrashAndTheServerGoesOn() {
        String crashing = Random22Scenario.generate(Explorer.trySeed(1, 9),
                s -> s.with(Setting.ZFS_ARC_META_BALANCE, 1L), null, null).text();
        String next = Random22Scenario.generate(Explorer.trySeed(1, 0), s -> s, null, null).text();
        try (OracleProcess server = OracleProcess.start(Oracles.released(ZfsRelease.V2_2_11))) {
            OracleOutput crashed = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> server.run("balance-1", crashing, false));
            assertEquals(OracleOutput.Ending.CRASH, crashed.ending(), crashed.message());
            assertTrue(crashed.message().contains("down <= frac"), crashed.message());
            String last = crashed.lines().get(crashed.lines().size() - 1);
            assertFalse(last.endsWith("}"), "the worker stopped inside a line: " + last.length() + " characters");
            assertFalse(crashed.lines().stream().anyMatch(l -> l.contains("@end")), "no line holds the ending");
            OracleOutput after = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> server.run("next", next, false));
            assertEquals(OracleOutput.Ending.OK, after.ending(), after.message());
        }
    }
}
