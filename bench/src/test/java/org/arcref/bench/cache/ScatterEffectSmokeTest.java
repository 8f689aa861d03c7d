package org.arcref.bench.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.arcref.trace.TraceReader;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of {@link ScatterEffect}: the smallest LIRS trace ({@code cs}, 6,781 requests) at 352 pages in both
 * modes with scatter ABDs on and off; it checks the shape of the result and what each mode promises about
 * {@code arc_c}, not the ratios (the full run: docs/performance.md, with its command and raw file).
 */
class ScatterEffectSmokeTest {

    /** The module's working directory is {@code bench/}; the LIRS traces are in the repository, {@code traces/lirs}. */
    private static final Path CS = Path.of("..", "traces", "lirs", "cs.trace.gz");

    @Test
    void eachModeReplaysTheTraceWithScatterOnAndOff() {
        assertTrue(Files.isRegularFile(CS), "the LIRS trace must exist at " + CS.toAbsolutePath());
        List<ScatterEffect.Row> rows = ScatterEffect.run("cs", TraceReader.read(CS), 352);
        assertEquals(List.of(ScatterEffect.Mode.PAGE, ScatterEffect.Mode.PAGE, ScatterEffect.Mode.BYTES,
                ScatterEffect.Mode.BYTES), rows.stream().map(ScatterEffect.Row::mode).toList());
        assertEquals(List.of(true, false, true, false), rows.stream().map(ScatterEffect.Row::scatter).toList());
        for (ScatterEffect.Row r : rows) {
            assertEquals(6781, r.requests(), r.toString());
            assertTrue(r.hits() >= 0 && r.hits() <= r.requests(), r.toString());
            assertTrue(r.meanPShare() >= 0 && r.meanPShare() <= 1, r.toString());
        }
        for (ScatterEffect.Row page : rows.subList(0, 2)) {
            assertEquals(page.cMax(), page.meanC(), "page mode: arc_c stays at arc_c_max, " + page);
            assertEquals(1, page.fullAt(), page.toString());
        }
        for (ScatterEffect.Row bytes : rows.subList(2, 4)) {
            assertTrue(bytes.meanC() < bytes.cMax(), "byte mode: arc_c starts at arc_c_max / 16, " + bytes);
        }
        assertEquals(3, ScatterEffect.table(rows).lines().count(), "header and one line per mode");
    }
}
