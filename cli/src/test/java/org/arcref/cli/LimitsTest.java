package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Limits: sizes, counts and durations the JVM cannot hold are one-line errors naming the option before any
 * work, never an {@link OutOfMemoryError}, a {@link StackOverflowError} or an overflow. The test JVM's heap is far
 * below what the rejected values need ({@link Limits}: 160 bytes a page, 32 a request).
 */
class LimitsTest {

    @TempDir
    Path dir;

    private static void assertOneLine(CliRun r, String start) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith(start), r.err());
    }

    /** Was: OutOfMemoryError in PageIndex. */
    @Test
    void aCacheSizeBeyondTheHeapIsRejectedUpFront() {
        long most = Limits.ofThisJvm().pages();
        assertTrue(100_000_000L > most, "the test needs a heap below 32 GB, was " + Runtime.getRuntime().maxMemory());
        assertOneLine(arc("replay", "--sizes", "100000000", "--length", "1000"),
                "arc: --sizes must be at most " + most + " pages, the most this JVM's heap of ");
        assertOneLine(arc("report", "--size", "100000000", "--length", "1000", "--out", dir.resolve("r.html")
                .toString()), "arc: --size must be at most " + most + " pages");
    }

    /** Was: OutOfMemoryError growing the request buffer for one 17-byte .lis line. */
    @Test
    void aTraceThatExpandsBeyondTheHeapIsRejectedAtItsLine() throws IOException {
        Path lis = Files.writeString(dir.resolve("big.lis"), "0 2000000000 0 1\n");
        assertOneLine(arc("replay", lis.toString()), "arc: " + lis + ":1: the trace expands to more than "
                + Limits.ofThisJvm().requests().requests() + " requests, the most this JVM's heap of ");
    }

    /** Was: OutOfMemoryError generating the synthetic workload. */
    @Test
    void aSyntheticWorkloadBeyondTheHeapIsRejectedUpFront() {
        assertOneLine(arc("replay", "--length", "2147483639"), "arc: --length must be at most "
                + Limits.ofThisJvm().requests().requests() + " requests");
    }

    /** Was: ArithmeticException: long overflow in Duration.toNanos. */
    @Test
    void aDurationBeyondTheLongRangeOfNanosecondsIsAUsageError() {
        assertOneLine(arc("explore", "--duration", "100000000h"), "arc: Invalid value for option '--duration': "
                + "must be at most 36500 days (876000h), was \"100000000h\"");
        assertOneLine(arc("soak", "--duration", "100000000h"), "arc: Invalid value for option '--duration'");
        assertOneLine(arc("soak", "--duration", "99999999999999999999h"), "arc: Invalid value for option '--duration': "
                + "must be a positive duration");
    }

    /** Was: StackOverflowError with a thousand lines of stack. */
    @Test
    void deeplyNestedJsonIsAOneLineError() throws IOException {
        Path deep = Files.writeString(dir.resolve("deep.jsonl"), "[".repeat(100_000) + "\n");
        assertOneLine(arc("verify", deep.toString()), "arc: " + deep + ":1: not JSON: column 65: objects and arrays "
                + "nested deeper than 64 levels");
    }

    @Test
    void threadCountsAreBounded() {
        assertOneLine(arc("soak", "--threads", "100000000"), "arc: --threads must be in [1, 1024], was 100000000");
        assertOneLine(arc("replay", "--concurrent", "5000", "--length", "100"),
                "arc: --concurrent must be in [1, 1024], was 5000");
        assertOneLine(arc("report", "--points", "2000000000"), "arc: --points must be in [2, 100000], was 2000000000");
    }
}
