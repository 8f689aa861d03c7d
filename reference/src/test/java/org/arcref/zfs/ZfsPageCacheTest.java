package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The spec behind the page-cache interface that the replay tools use: hits, misses, name and capacity. */
class ZfsPageCacheTest {

    @Test
    @DisplayName("a first access misses, a repeated one hits, and the spec underneath counts both")
    void accessReportsHitsAndMisses() {
        ZfsPageCache cache = new ZfsPageCache(8);
        assertFalse(cache.access(1), "a cold page misses");
        assertTrue(cache.access(1), "a cached page hits");
        assertFalse(cache.access(2));
        assertEquals(2, cache.arc().stat(ArcStat.MISSES));
        assertEquals(1, cache.arc().stat(ArcStat.HITS));
        assertEquals(8 * ZfsPageCache.PAGE_SIZE, cache.arc().config().cMax());
    }

    @Test
    @DisplayName("the cache names itself zfs and reports the capacity it was built with")
    void nameAndCapacity() {
        ZfsPageCache cache = new ZfsPageCache(250);
        assertEquals("zfs", cache.name());
        assertEquals(250, cache.capacity());
    }
}
