package org.arcref.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The op-trace format: every operation, comments, suffixes, gzip by content, and errors that name file and line. */
class OpTraceReaderTest {

    @TempDir
    Path dir;

    private static final String TRACE = String.join("\n",
            "# every operation once",
            "read 1 4K",
            "read -2 512 prefetch   # trailing comment",
            "READ 3 1k prescient",
            "read 4 8K demand hold",
            "",
            "write 10 2K",
            "complete 10 hold",
            "release 10",
            "overwrite 4 11",
            "free 4",
            "shrink 1M",
            "evict",
            "reap",
            "tick 62",
            "memory 1G");

    private static final List<Operation> EXPECTED = List.of(
            new Operation.Read(1, 4096, ReadKind.DEMAND, false),
            new Operation.Read(-2, 512, ReadKind.PREFETCH, false),
            new Operation.Read(3, 1024, ReadKind.PRESCIENT_PREFETCH, false),
            new Operation.Read(4, 8192, ReadKind.DEMAND, true),
            new Operation.Write(10, 2048),
            new Operation.Complete(10, true),
            new Operation.Release(10),
            new Operation.Overwrite(4, 11),
            new Operation.Free(4),
            new Operation.Shrink(1 << 20),
            new Operation.Evict(),
            new Operation.Reap(),
            new Operation.Tick(62),
            new Operation.Memory(1L << 30));

    @Test
    void readsEveryOperationFromPlainText() throws IOException {
        Path f = dir.resolve("ops.trace");
        Files.writeString(f, TRACE);
        assertEquals(EXPECTED, OpTraceReader.read(f));
    }

    @Test
    void readsGzipByContentWhateverTheName() throws IOException {
        Path f = dir.resolve("ops.txt");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
            out.write(TRACE.getBytes(StandardCharsets.UTF_8));
        }
        assertEquals(EXPECTED, OpTraceReader.read(f));
    }

    @Test
    void traceLinesRoundTrip() {
        for (Operation op : EXPECTED) {
            assertEquals(op, OpTraceReader.parseLine(op.toTraceLine()), op.toTraceLine());
        }
    }

    @Test
    void amountsMayBeZero() throws IOException {
        Path f = dir.resolve("zero.trace");
        Files.writeString(f, "shrink 0\nmemory 0K\ntick 0\n");
        assertEquals(List.of(new Operation.Shrink(0), new Operation.Memory(0), new Operation.Tick(0)),
                OpTraceReader.read(f));
    }

    @Test
    void badLinesNameFileLineAndProblem() throws IOException {
        expectError("read 1\n", "bad.trace:1: read needs size as argument 2");
        expectError("# ok\nread x 512\n", "bad.trace:2: key must be a 64-bit integer, got \"x\"");
        expectError("tick -3\n", "bad.trace:1: ticks must be >= 0, got \"-3\"");
        expectError("\n\nshrink 12Q\n", "bad.trace:3: bytes must be a non-negative integer with an optional K, M or G suffix, got \"12Q\"");
        expectError("read 1 512 sometimes\n", "bad.trace:1: expected demand, prefetch, prescient, hold or meta, got \"sometimes\"");
        expectError("evict now\n", "bad.trace:1: too many fields for evict: expected at most 0 arguments, got 1");
        expectError("jump 3\n", "bad.trace:1: unknown operation \"jump\"");
        expectError("complete 3 later\n", "bad.trace:1: expected hold, got \"later\"");
        expectError("overwrite 3\n", "bad.trace:1: overwrite needs newKey as argument 2");
        expectError("overwrite 3 x\n", "bad.trace:1: newKey must be a 64-bit integer, got \"x\"");
        expectError("overwrite 3 4 5\n", "bad.trace:1: too many fields for overwrite: expected at most 2 arguments, got 3");
    }

    private void expectError(String content, String messagePrefix) throws IOException {
        Path f = dir.resolve("bad.trace");
        Files.writeString(f, content);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> OpTraceReader.read(f));
        String msg = e.getMessage().replace(f.toString(), "bad.trace");
        assertEquals(true, msg.startsWith(messagePrefix), "expected '" + messagePrefix + "', was '" + msg + "'");
    }
}
