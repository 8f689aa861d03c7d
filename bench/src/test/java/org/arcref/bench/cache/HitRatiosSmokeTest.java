package org.arcref.bench.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of E3's hit ratios: the smallest LIRS trace ({@code cs}, 6,781 requests) through all five
 * policies at its three capacities; it checks the shape of the result and the range of every count, not the
 * ratios (the full run: docs/performance.md, E3, with its command and raw file).
 */
class HitRatiosSmokeTest {

    /** The module's working directory is {@code bench/}; the LIRS traces are in the repository, {@code traces/lirs}. */
    private static final Path CS = Path.of("..", "traces", "lirs", "cs.trace.gz");

    @Test
    void everyPolicyReplaysTheTraceAtEveryCapacity() {
        assertTrue(Files.isRegularFile(CS), "the LIRS trace must exist at " + CS.toAbsolutePath());
        List<HitRatios.Row> rows = HitRatios.run(List.of(CS));
        assertEquals(15, rows.size(), "3 capacities x 5 policies: " + rows);
        assertEquals(List.of("zfs", "concurrent", "canonical", "lru", "caffeine"),
                rows.subList(0, 5).stream().map(HitRatios.Row::policy).toList());
        assertEquals(List.of(141, 352, 705), rows.stream().map(HitRatios.Row::pages).distinct().toList());
        for (HitRatios.Row r : rows) {
            assertEquals(6781, r.requests(), r.toString());
            assertTrue(r.hits() >= 0 && r.hits() <= r.requests(), r.toString());
        }
        assertEquals(4, HitRatios.table(rows).lines().count(), "header and one line per capacity");
    }
}
