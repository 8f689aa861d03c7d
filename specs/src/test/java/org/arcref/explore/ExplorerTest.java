package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;

/** Stopping (Ctrl-C) ends an exploration between tries with an honest count; try seeds are stable. */
class ExplorerTest {

    @Test
    void stopsBetweenTriesWhenAsked() {
        long[] seen = {0};
        Explorer explorer = new Explorer(new Checker(),
                new Explorer.Plan(3, Shard.ALL, 0, 60_000_000_000L, CheckKind.DEFAULTS));
        ExploreResult r = explorer.run(() -> seen[0] >= 7, done -> seen[0] = done);
        assertTrue(r.interrupted());
        assertEquals(7, r.tries());
        assertNull(r.failure());
        assertEquals(7, r.triesByCheck().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void aTryIsAFunctionOfItsSeed() {
        long t = Explorer.trySeed(42, 9);
        assertEquals(t, Explorer.trySeed(42, 9));
        assertTrue(t != Explorer.trySeed(42, 10) && t != Explorer.trySeed(43, 9));
        for (CheckKind k : CheckKind.values()) {
            for (ZfsEngine e : ZfsEngine.values()) {
                assertEquals(Explorer.tryOf(k, e, t), Explorer.tryOf(k, e, t));
            }
        }
        assertEquals(ZfsEngine.V2_2_0, Explorer.tryOf(CheckKind.ORACLE, ZfsEngine.V2_2_0, t).settings().engine(),
                "the oracle check draws the oracle's engine's tries");
        assertEquals(Explorer.tryOf(CheckKind.INVARIANTS, ZfsEngine.V2_1_1, t),
                Explorer.tryOf(CheckKind.INVARIANTS, ZfsEngine.V2_2_0, t), "the other checks draw zfs-2.1.1's");
    }
}
