package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code arc replay --concurrent N} end to end on a small loop trace. */
class ConcurrentReplayTest {

    @TempDir
    Path dir;

    private Path loop(int pages, int rounds) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int round = 0; round < rounds; round++) {
            for (int b = 0; b < pages; b++) {
                sb.append(b).append('\n');
            }
        }
        Path trace = dir.resolve("loop.trace");
        Files.writeString(trace, sb.toString());
        return trace;
    }

    private static long field(String json, int pages, String name) {
        Matcher m = Pattern.compile("\\{\"pages\":" + pages + ",[^}]*\"" + name + "\":(\\d+)").matcher(json);
        assertTrue(m.find(), name + " at " + pages + " pages in " + json);
        return Long.parseLong(m.group(1));
    }

    @Test
    void fourThreadsHitEveryRepeatWhenTheLoopFitsAndWaitForEvictionWhenItDoesNot() throws IOException {
        Path trace = loop(1000, 3);
        CliRun r = CliRun.arc("replay", trace.toString(), "--concurrent", "4", "--sizes", "100,2000", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\"threads\": 4") && r.out().contains("\"partition\": \"interleaved\""), r.out());
        assertEquals(3000, field(r.out(), 2000, "requests"));
        assertEquals(3000 - 1000, field(r.out(), 2000, "hits"), "1000 pages fit in 2000: only first reads miss");
        assertEquals(0, field(r.out(), 2000, "evictWaits"));
        assertTrue(field(r.out(), 100, "hits") < 1500, "a 1000-page loop thrashes 100 pages: " + r.out());
        assertTrue(field(r.out(), 100, "evictWaits") > 0, "reads wait for eviction at 100 pages: " + r.out());
        assertTrue(field(r.out(), 100, "evictWaitMaxNanos") >= field(r.out(), 100, "evictWaitP99Nanos"), r.out());
        assertTrue(field(r.out(), 2000, "maxAggsumGapBytes") > 0, "the per-CPU aggsum's bounds differ: " + r.out());
    }

    @Test
    void theTableNamesThePartitionAndBadCombinationsAreErrors() throws IOException {
        Path trace = loop(10, 5);
        CliRun table = CliRun.arc("replay", trace.toString(), "--concurrent", "2", "--sizes", "4");
        assertEquals(0, table.status(), table.err());
        assertTrue(table.out().contains("2 threads, requests interleaved"), table.out());
        assertTrue(table.out().matches("(?s).*\\n\\s+4\\s+\\d+\\.\\d\\d .*"), table.out());
        CliRun zero = CliRun.arc("replay", trace.toString(), "--concurrent", "0");
        assertEquals(ExitCode.BAD_INPUT, zero.status());
        assertEquals("arc: --concurrent must be in [1, 1024], was 0", zero.err().strip());
        CliRun withPolicies = CliRun.arc("replay", trace.toString(), "--concurrent", "2", "--policies", "lru");
        assertEquals(ExitCode.BAD_INPUT, withPolicies.status());
        assertEquals("arc: --policies has no effect with --concurrent (it replays the concurrent ARC once), was given",
                withPolicies.err().strip());
    }
}
