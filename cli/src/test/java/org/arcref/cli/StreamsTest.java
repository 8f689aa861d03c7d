package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.arcref.cli.CliRun.arcWithStdin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams: every file argument reads once, so {@code -}, {@code /dev/stdin} and named pipes give the
 * same result as the file; plain, gzip and zstd are told apart by content; content that is no text trace is named.
 */
class StreamsTest {

    private static final String TRACE = "1\n2\n3\n1\n2\n3\n4\n1\n";

    @TempDir
    Path dir;

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(b)) {
            z.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    private static byte[] zstd(String text) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream z = new ZstdOutputStream(b)) {
            z.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    /** The hit-ratio JSON without the source and the speed, which differ between runs. */
    private static String hits(CliRun r) {
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        return r.out().replaceAll("\"source\": \"[^\"]*\"", "").replaceAll("\"requestsPerSecond\":\\d+", "");
    }

    @Test
    void standardInputGivesTheFilesResultPlainGzipAndZstd() throws IOException {
        Path file = dir.resolve("t.trace");
        Files.writeString(file, TRACE);
        String expected = hits(arc("replay", file.toString(), "--sizes", "2", "--json"));
        assertTrue(expected.contains("\"requests\": 8"), expected);
        for (byte[] input : new byte[][] {TRACE.getBytes(StandardCharsets.UTF_8), gzip(TRACE), zstd(TRACE)}) {
            assertEquals(expected, hits(arcWithStdin(input, "replay", "-", "--sizes", "2", "--json")));
        }
        Path z = dir.resolve("t.trace.zst");
        Files.write(z, zstd(TRACE));
        assertEquals(expected, hits(arc("replay", z.toString(), "--sizes", "2", "--json")));
    }

    /** The bug: a pipe read twice (format detection, then reading) replayed 0 requests and exited 0. */
    @Test
    void aNamedPipeIsReadOnceLikeAFile() throws Exception {
        Path file = dir.resolve("t.trace");
        Files.writeString(file, TRACE);
        String expected = hits(arc("replay", file.toString(), "--sizes", "2", "--json"));
        for (byte[] content : new byte[][] {TRACE.getBytes(StandardCharsets.UTF_8), gzip(TRACE)}) {
            Path fifo = dir.resolve("fifo-" + content.length);
            assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try (OutputStream o = Files.newOutputStream(fifo)) {
                    o.write(content);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertEquals(expected, hits(arc("replay", fifo.toString(), "--sizes", "2", "--json")));
            writer.get();
        }
    }

    @Test
    void conformAndVerifyReadStandardInput() throws IOException {
        String ops = "read 1 1K\nread 1 1K\nread 2 2K\n";
        CliRun fromFile;
        Path trace = dir.resolve("t.ops");
        Files.writeString(trace, ops);
        fromFile = arc("conform", trace.toString());
        CliRun fromStdin = arcWithStdin(gzip(ops), "conform", "-");
        assertEquals(ExitCode.SUCCESS, fromStdin.status(), fromStdin.err());
        assertEquals(fromFile.out().lines().skip(1).toList(), fromStdin.out().lines().skip(1).toList());
        Path expected = dir.resolve("expected.jsonl");
        Files.writeString(expected, fromFile.out());
        CliRun verify = arcWithStdin(fromFile.out().getBytes(StandardCharsets.UTF_8), "verify", expected.toString(),
                "-");
        assertEquals(ExitCode.SUCCESS, verify.status(), verify.out() + verify.err());
        CliRun both = arc("verify", "-", "-");
        assertEquals(ExitCode.BAD_INPUT, both.status());
        assertEquals("arc: EXPECTED and ACTUAL cannot both be - (standard input is read once)", both.err().strip());
    }

    @Test
    void conformWritesStandardOutputForDashAndNeverOverwritesItsInput() throws IOException {
        Path trace = dir.resolve("t.ops");
        Files.writeString(trace, "read 1 1K\n");
        CliRun dash = arc("conform", trace.toString(), "-o", "-");
        assertEquals(ExitCode.SUCCESS, dash.status(), dash.err());
        assertEquals(2, dash.out().lines().count());
        CliRun same = arc("conform", trace.toString(), "-o", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, same.status());
        assertEquals("arc: -o/--output must not be an input file (it would be overwritten), was " + trace,
                same.err().strip());
        assertEquals("read 1 1K\n", Files.readString(trace));
    }

    @Test
    void corruptTruncatedBinaryAndByteOrderMarkedInputIsNamedInWords() throws IOException {
        byte[] gz = gzip(randomTrace());
        assertError("corrupt gzip data", corrupt(gz));
        assertError("truncated file: the compressed data ends early", Arrays.copyOf(gz, gz.length / 2));
        byte[] zs = zstd(randomTrace());
        assertError("corrupt zstd data", corrupt(zs));
        assertError("binary data (a NUL byte at offset 2 of the content)", new byte[] {'1', '\n', 0, 5, 7});
        String marked = "\ufeff" + TRACE;
        assertError("the file starts with a UTF-8 byte-order mark", marked.getBytes(StandardCharsets.UTF_8));
        assertError("the file starts with a UTF-16 byte-order mark", marked.getBytes(StandardCharsets.UTF_16LE));
    }

    /** A trace that compresses badly, so that its compressed form has bytes to corrupt. */
    private static String randomTrace() {
        java.util.Random r = new java.util.Random(12);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            sb.append(r.nextInt(1_000_000)).append('\n');
        }
        return sb.toString();
    }

    private static byte[] corrupt(byte[] compressed) {
        byte[] c = compressed.clone();
        for (int i = 20; i < c.length - 20; i += 7) {
            c[i] ^= 0x5a;
        }
        return c;
    }

    private void assertError(String words, byte[] content) throws IOException {
        Path f = Files.write(dir.resolve("bad"), content);
        CliRun r = arc("replay", f.toString(), "--sizes", "2");
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(words), r.err());
        assertTrue(r.err().chars().allMatch(c -> c == '\n' || c >= 0x20 && c < 0x7f), "printable ASCII: " + r.err());
    }
}
