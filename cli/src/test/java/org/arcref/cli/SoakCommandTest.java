package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code arc soak} end to end: a short soak evicts, makes threads wait and finds no violation; bad arguments. */
class SoakCommandTest {

    @Test
    void aShortSoakEvictsWaitsAndFindsNoViolation() {
        CliRun r = CliRun.arc("soak", "--duration", "1500ms", "--threads", "3");
        assertEquals(0, r.status(), r.out() + r.err());
        Matcher m = Pattern.compile("arc soak: 3 threads, [\\d.]+ s, ([\\d,]+) operations, ([\\d,]+) evictions, "
                + "[\\d,]+ evictor runs, ([\\d,]+) eviction waits .*: no violation").matcher(r.out().strip());
        assertTrue(m.matches(), r.out());
        assertTrue(number(m.group(1)) > 1000, "operations: " + m.group(1));
        assertTrue(number(m.group(2)) > 0, "evictions: " + m.group(2));
        assertTrue(number(m.group(3)) > 0, "eviction waits: " + m.group(3));
    }

    @Test
    void badArgumentsAreOneLineErrors() {
        CliRun threads = CliRun.arc("soak", "--threads", "0");
        assertEquals(ExitCode.BAD_INPUT, threads.status());
        assertEquals("arc: --threads must be in [1, 1024], was 0", threads.err().strip());
        CliRun cache = CliRun.arc("soak", "--c-min-kib", "64", "--c-max-kib", "32");
        assertEquals(ExitCode.BAD_INPUT, cache.status());
        assertTrue(cache.err().strip().startsWith("arc: --c-min-kib and --c-max-kib must satisfy"), cache.err());
        CliRun help = CliRun.arc("soak", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("Examples:"), help.out());
    }

    private static long number(String s) {
        return Long.parseLong(s.replace(",", ""));
    }
}
