package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.arcref.conformance.ConformanceFile;
import org.arcref.zfs.BufHash;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * The hash-lock stripes the oracle showed (docs/oracle.md, "What the oracle found"): in arc.c, while the read of key
 * 0 waits for eviction holding its hash lock, the evictor misses key 1780, another block of the same lock, and the
 * spec does the same. (The spec before the oracle counted a miss only on the allocating header and evicted key
 * 1780 there.)
 */
class HashLockStripeOracleTest {

    private static final String TRACE = "hash-lock-shared-by-another-key";

    @Test
    @SuppressWarnings("unchecked")
    void theEvictorMissesAnotherBlockOfTheHeldHashLock() {
        assertEquals(BufHash.hashLockOf(0), BufHash.hashLockOf(1780), "the trace's two keys share a hash lock");
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_1_1)) {
            OracleComparison.Result r = oracle.comparison().compare(TRACE, TransitionTraces.all().get(TRACE), false);
            assertTrue(r.agrees(), r.describe());
            Map<String, Object> last = ConformanceFile.parse(r.oracle().lines(), "zfs").lines()
                    .get(r.oracle().lines().size() - 1);
            Map<String, Object> stats = (Map<String, Object>) last.get("stats");
            assertEquals("1", String.valueOf(stats.get("mutex_miss")), "arc.c's mutex_miss after the read of key 0");
            List<Map<String, Object>> evicted = (List<Map<String, Object>>) last.get("evicted");
            assertTrue(evicted.stream().noneMatch(e -> String.valueOf(e.get("key")).equals("1780")),
                    "arc.c must not evict key 1780: " + evicted);
            assertTrue(!evicted.isEmpty(), "the wait evicts other blocks");
        }
    }
}
