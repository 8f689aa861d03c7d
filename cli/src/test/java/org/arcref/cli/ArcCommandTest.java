package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code arc} command end to end: the default job, replays, JSON, and one-line errors with exit codes. */
class ArcCommandTest {

    @TempDir
    Path dir;

    @Test
    void noArgumentsReplaysTheSyntheticWorkloadThroughAllPolicies() {
        CliRun r = arc("replay", "--length", "20000");
        CliRun def = arc();
        assertEquals(0, def.status(), def.err());
        assertTrue(def.out().startsWith("arc replay: synthetic workload (seed 42), 1,000,000 requests"), def.out());
        assertEquals(List.of("47.02", "56.08", "64.15", "67.04", "67.98"), hitRatioColumn(def.out(), "zfs"),
                "zfs-2.1.1's engine on the built-in workload, pinned: the other columns must not change it");
        assertEquals(List.of("46.16", "54.24", "63.28", "66.64", "68.01"), hitRatioColumn(def.out(), "zfs22"),
                "zfs-2.2.0's engine beside it, pinned");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("hit ratio (%) by cache size (pages)"), r.out());
        assertTrue(r.out().matches("(?s).*size\\s+zfs\\s+zfs22\\s+canonical\\s+lru.*"), r.out());
        assertTrue(r.err().isEmpty(), r.err());
    }

    /** @return the cells of {@code policy}'s column in the hit-ratio table of a replay's output, top down */
    private static List<String> hitRatioColumn(String out, String policy) {
        List<String> table = out.lines().dropWhile(l -> !l.startsWith("hit ratio")).skip(1)
                .takeWhile(l -> !l.isBlank()).toList();
        int column = List.of(table.get(0).trim().split("\\s+")).indexOf(policy);
        assertTrue(column > 0, "no column " + policy + " in " + out);
        return table.stream().skip(1).map(l -> l.trim().split("\\s+")[column]).toList();
    }

    @Test
    void replaysATraceFileAtTheGivenSizes() throws IOException {
        Path trace = dir.resolve("t.trace");
        StringBuilder sb = new StringBuilder();
        for (int round = 0; round < 10; round++) {
            for (int b = 0; b < 4; b++) {
                sb.append(b).append('\n');
            }
        }
        Files.writeString(trace, sb.toString());
        CliRun r = arc("replay", trace.toString(), "--sizes", "8", "--policies", "lru,canonical", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\"requests\": 40"), r.out());
        assertTrue(r.out().contains("\"uniquePages\": 4"), r.out());
        Matcher m = Pattern.compile("\"policy\":\"lru\",\"pages\":8,\"hits\":(\\d+)").matcher(r.out());
        assertTrue(m.find(), r.out());
        assertEquals(36, Long.parseLong(m.group(1)), "4 blocks fit in 8 pages: only the 4 first requests miss");
    }

    @Test
    void aBadTraceLineIsOneLineNamingFileAndLineWithExitTwo() throws IOException {
        Path trace = dir.resolve("bad.trace");
        Files.writeString(trace, "1\n2\nnot-a-block\n");
        CliRun r = arc("replay", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + trace + ":3: expected a block number, got \"not-a-block\"", r.err().strip());
    }

    @Test
    void aMissingFileIsOneLineWithExitTwo() {
        CliRun r = arc("replay", dir.resolve("absent").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().strip().startsWith("arc: trace file does not exist: "), r.err());
        assertEquals(1, r.err().strip().lines().count());
    }

    @Test
    void badUsageAndBadValuesExitTwo() {
        CliRun r = arc("replay", "--policies", "fifo");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: Invalid value for option '--policies'"), r.err());
        CliRun tooSmall = arc("replay", "--sizes", "1", "--length", "100");
        assertEquals(ExitCode.BAD_INPUT, tooSmall.status());
        assertEquals("arc: --sizes must all be >= 2, was 1", tooSmall.err().strip());
        CliRun empty = arc("replay", "--length", "0");
        assertEquals(ExitCode.BAD_INPUT, empty.status());
        assertEquals("arc: --length must be in [1, 2147483639], was 0", empty.err().strip());
    }

    @Test
    void helpListsExamples() {
        CliRun r = arc("replay", "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("Examples:"), r.out());
    }
}
