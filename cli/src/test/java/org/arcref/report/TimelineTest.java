package org.arcref.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** What the report's charts over the requests sample, for both engines. */
class TimelineTest {

    private static final Runnable NOTHING = () -> { };

    @Test
    void zfsSamplesArcCArcPAndEveryStateInPages() {
        long[] scan = LongStream.range(0, 100).toArray();
        Timeline t = Timeline.zfs(scan, 16, 10, NOTHING);
        assertEquals(List.of("arc_c", "arc_p", "anon", "mru", "mru_ghost", "mfu", "mfu_ghost"), t.names());
        assertEquals(10, t.at().length);
        assertEquals(100, t.at()[9], "the last sample follows the last request");
        assertEquals(16, t.values("arc_c")[9]);
        assertEquals(16, t.values("mru")[9] + t.values("mfu")[9], 1, "the cache is full");
        assertEquals(0, t.values("mfu")[9], "a scan reads every page once");
    }

    @Test
    void zfs22SamplesSizesInPagesThenTheFractionsOfOne() {
        long[] scan = LongStream.range(0, 100).toArray();
        Timeline t = Timeline.zfs22(scan, 16, 10, NOTHING);
        assertEquals(List.of("arc_c", "anon", "mru", "mru_ghost", "mfu", "mfu_ghost", "arc_meta", "arc_pd", "arc_pm"),
                t.names());
        assertEquals(16, t.values("arc_c")[9]);
        assertEquals(16, t.values("mru")[9], 1, "the cache is full, all in MRU");
        assertEquals(0, t.values("mru_ghost")[9], "MRU ghost data is trimmed to half of MRU metadata and MFU: none");
        assertEquals(List.of(0.25), distinct(t.values("arc_meta")), "no ghost hit moves a fraction");
        assertEquals(List.of(0.5), distinct(t.values("arc_pd")));
        assertEquals(List.of(0.5), distinct(t.values("arc_pm")));
    }

    @Test
    void zfs22GhostHitsMoveTheFractions() {
        long[] loop = LongStream.range(0, 2000).map(i -> i % 24).toArray();
        Timeline t = Timeline.zfs22(loop, 16, 20, NOTHING);
        double[] meta = t.values("arc_meta");
        double[] pd = t.values("arc_pd");
        assertTrue(meta[meta.length - 1] < 0.25, "data ghost hits lower arc_meta: " + Arrays.toString(meta));
        assertTrue(Arrays.stream(pd).anyMatch(v -> v != 0.5), "ghost hits move arc_pd: " + Arrays.toString(pd));
        assertEquals(List.of(0.5), distinct(t.values("arc_pm")), "no metadata, so arc_pm stays");
    }

    @Test
    void anUnsampledNameIsRejectedNamingTheNames() {
        Timeline t = Timeline.zfs(new long[] {1, 2, 3}, 4, 3, NOTHING);
        assertEquals("name must be one of [arc_c, arc_p, anon, mru, mru_ghost, mfu, mfu_ghost], was arc_pd",
                assertThrows(IllegalArgumentException.class, () -> t.values("arc_pd")).getMessage());
    }

    private static List<Double> distinct(double[] values) {
        return Arrays.stream(values).distinct().boxed().toList();
    }
}
