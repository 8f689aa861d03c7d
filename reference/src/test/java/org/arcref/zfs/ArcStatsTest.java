package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link ArcStats} is a value: equal counts are equal statistics, and its map and string list every counter. */
class ArcStatsTest {

    private static ArcStats withHits(long hits) {
        long[] values = new long[ArcStat.values().length];
        values[ArcStat.HITS.ordinal()] = hits;
        return new ArcStats(values);
    }

    @Test
    @DisplayName("statistics with the same counts are equal and hash alike; different counts are not equal")
    void valueSemantics() {
        assertEquals(withHits(3), withHits(3));
        assertEquals(withHits(3).hashCode(), withHits(3).hashCode());
        assertNotEquals(withHits(3), withHits(4));
    }

    @Test
    @DisplayName("the map holds every counter in declaration order, and the string form is the map's")
    void mapAndString() {
        Map<ArcStat, Long> map = withHits(7).asMap();
        assertEquals(ArcStat.values().length, map.size());
        assertEquals(7L, map.get(ArcStat.HITS));
        assertEquals(0L, map.get(ArcStat.MISSES));
        assertEquals(map.toString(), withHits(7).toString());
        assertEquals(ArcStat.values()[0], map.keySet().iterator().next());
    }
}
