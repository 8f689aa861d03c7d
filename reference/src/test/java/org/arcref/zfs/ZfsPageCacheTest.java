package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.arcref.policy.PageCache;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Both engines behind the page-cache interface that the replay tools use: hits, misses, names and capacity. */
class ZfsPageCacheTest {

    @Test
    @DisplayName("zfs-2.1.1's engine: a first access misses, a repeated one hits, and the spec underneath counts both")
    void accessReportsHitsAndMisses() {
        ZfsPageCache<ZfsArc> cache = ZfsPageCache.zfs(8);
        missHitMiss(cache);
        assertEquals(2, cache.arc().stat(ArcStat.MISSES));
        assertEquals(1, cache.arc().stat(ArcStat.HITS));
        assertEquals(8 * ZfsPageCache.PAGE_SIZE, cache.arc().config().cMax());
    }

    @Test
    @DisplayName("zfs-2.2.0's engine: the same requests give the same outcomes, counted as demand data reads")
    void zfs22AccessReportsHitsAndMisses() {
        ZfsPageCache<Zfs22Arc> cache = ZfsPageCache.zfs22(8);
        missHitMiss(cache);
        Arc22Snapshot s = cache.arc().snapshot();
        assertEquals(2, s.stat(ArcStat.DEMAND_DATA_MISSES));
        assertEquals(1, s.stat(ArcStat.DEMAND_DATA_HITS));
        assertEquals(0, s.state(ArcState.MRU, BufType.METADATA).size() + s.state(ArcState.MFU, BufType.METADATA).size(),
                "every page is data");
        assertEquals(3, s.tick(), "one tick per request");
        assertEquals(8 * ZfsPageCache.PAGE_SIZE, s.c(), "arc_c starts, and stays, at the capacity");
        assertEquals(Set.of(), cache.arc().config().fixes(), "zfs-2.2.0 itself, no fix of a later release");
    }

    /** Requests pages 1, 1, 2 of an empty cache: a miss, a hit, a miss. */
    private static void missHitMiss(PageCache cache) {
        assertFalse(cache.access(1), "a cold page misses");
        assertTrue(cache.access(1), "a cached page hits");
        assertFalse(cache.access(2), "another cold page misses");
    }

    @Test
    @DisplayName("zfs-2.2.0's engine keeps arc_c at the capacity and the size within one page of it over a scan")
    void zfs22StaysAtItsCapacity() {
        ZfsPageCache<Zfs22Arc> cache = ZfsPageCache.zfs22(16);
        for (long page = 0; page < 200; page++) {
            assertFalse(cache.access(page), "a scan never hits, page " + page);
            Arc22Snapshot s = cache.arc().snapshot();
            assertEquals(16 * ZfsPageCache.PAGE_SIZE, s.c(), "arc_c after page " + page);
            assertTrue(s.size() <= 17 * ZfsPageCache.PAGE_SIZE, "arc_size " + s.size() + " after page " + page);
        }
    }

    @Test
    @DisplayName("each engine names itself as its column and reports the capacity it was built with")
    void nameAndCapacity() {
        assertEquals("zfs", ZfsPageCache.zfs(250).name());
        assertEquals(250, ZfsPageCache.zfs(250).capacity());
        assertEquals("zfs22", ZfsPageCache.zfs22(250).name());
        assertEquals(250, ZfsPageCache.zfs22(250).capacity());
        ArcConfig lowerMin = new ArcConfig(2 * 4096, 40 * 4096, 4096, 2 * 4096, 0, 16, 4, 0, true, Set.of(),
                Tunables.defaults());
        assertEquals(40, ZfsPageCache.zfs(lowerMin).capacity(), "arc_c_max in pages");
    }

    @Test
    @DisplayName("B1: a blank name, a block limit below a page and a capacity below 2 pages are rejected by name")
    void badArgumentsAreRejectedByName() {
        ZfsArc arc = new ZfsArc(ArcConfig.pages(8, 4096), MemoryModel.plentiful());
        assertEquals("name must not be blank, was \" \"",
                assertThrows(IllegalArgumentException.class, () -> new ZfsPageCache<>(" ", arc)).getMessage());
        assertEquals("arc must not be null",
                assertThrows(IllegalArgumentException.class, () -> new ZfsPageCache<ZfsArc>("x", null)).getMessage());
        ZfsArc smallBlocks = new ZfsArc(ArcConfig.pages(8, 2048), MemoryModel.plentiful());
        assertEquals("arc.config().maxBlockSize must be in [4096, 16777216], was 2048", assertThrows(
                IllegalArgumentException.class, () -> new ZfsPageCache<>("x", smallBlocks)).getMessage());
        ArcConfig tiny = new ArcConfig(1024, 4096, 4096, 1024, 0, 16, 4, 0, true, Set.of(), Tunables.defaults());
        assertEquals("arc.config().cMax / PAGE_SIZE must be in [2, 2147483647], was 1", assertThrows(
                IllegalArgumentException.class, () -> ZfsPageCache.zfs(tiny)).getMessage());
        assertEquals("pages must be in [2, 2147483647], was 1",
                assertThrows(IllegalArgumentException.class, () -> ZfsPageCache.zfs22(1)).getMessage());
    }
}
