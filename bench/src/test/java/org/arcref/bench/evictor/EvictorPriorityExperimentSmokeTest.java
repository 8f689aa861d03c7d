package org.arcref.bench.evictor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of E1: one short repetition at two priorities in both flag modes, each in its own JVM. Checks
 * that every child JVM measured something and, when the JVM can honour priorities (root on Linux), that the flags
 * put the evictor at nice 19 for {@code minclsyspri} and the control left it at nice 0.
 */
class EvictorPriorityExperimentSmokeTest {

    @Test
    void everyModeAndPriorityRunsInItsOwnJvmAndReportsTheEvictorsNiceValue() throws Exception {
        Path csv = Path.of("target", "smoke", "e1-smoke.csv");
        List<ZthrPriority> priorities = List.of(ZthrPriority.MINCLSYSPRI, ZthrPriority.DEFCLSYSPRI);
        List<String[]> rows = EvictorPriorityExperiment.run(csv, 1, 0.2, 0.3, priorities);
        assertEquals(4, rows.size());
        assertEquals(5, Files.readAllLines(csv).size(), "header and four rows in " + csv);
        boolean linuxRoot = Files.isDirectory(Path.of("/proc/self/task"))
                && "root".equals(System.getProperty("user.name"));
        for (String[] r : rows) {
            String row = String.join(",", r);
            assertTrue(Double.parseDouble(r[6]) > 0, "opsPerSecond must be positive: " + row);
            assertTrue(Long.parseLong(r[7]) > 0, "allocations must be positive: " + row);
            assertTrue(Double.parseDouble(r[10]) >= Double.parseDouble(r[8]), "max >= p50: " + row);
            if (linuxRoot) {
                String expectedNice = r[0].equals("honoured") && r[2].equals("MINCLSYSPRI") ? "19" : "0";
                assertEquals(expectedNice, r[r.length - 1], "evictor nice value: " + row);
            }
        }
        String summary = EvictorPriorityExperiment.summary(rows);
        assertTrue(summary.contains("honoured  DEFCLSYSPRI / MINCLSYSPRI"), summary);
        assertTrue(summary.contains("control   DEFCLSYSPRI / MINCLSYSPRI"), summary);
    }
}
