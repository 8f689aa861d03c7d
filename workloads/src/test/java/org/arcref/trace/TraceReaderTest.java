package org.arcref.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The trace formats of {@link TraceFormat}, read plain and gzip-compressed, and B1 for trace readers:
 * every bad line is reported with the file, the line number and what was wrong.
 */
class TraceReaderTest {

    @TempDir
    Path dir;

    private Path plain(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private Path gzip(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    @Test
    void lirsSkipsBreakpointsAndBlankLinesAndToleratesCrlfAndNoFinalNewline() throws IOException {
        Path trace = plain("quirks.trace", "5\r\n*\r\n\r\n  7 \r\n-3\n*\n\n9");
        assertArrayEquals(new long[] {5, 7, -3, 9}, TraceReader.read(trace, TraceFormat.LIRS));
    }

    @Test
    void lirsBadLineNamesFileLineAndProblem() throws IOException {
        Path trace = plain("bad.trace", "1\n*\n2\n12x\n3\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.read(trace));
        assertEquals(trace + ":4: expected a block number, got \"12x\"", e.getMessage());
        assertEquals(4, e.line());
    }

    @Test
    void lisLineExpandsToItsBlockRangeAndIgnoresTheThirdField() throws IOException {
        Path trace = plain("small.lis", "100 3 0 0\n100 3 77 1\r\n\n7 1 5 2");
        assertArrayEquals(new long[] {100, 101, 102, 100, 101, 102, 7}, TraceReader.read(trace, TraceFormat.LIS));
    }

    @Test
    void lisRangesMayStartAtBlockZeroAndEndAtTheLargestBlock() throws IOException {
        Path trace = plain("edges.lis", "0 2 0 0\n9223372036854775806 2 0 1\n9223372036854775807 1 0 2\n");
        assertArrayEquals(new long[] {0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE, Long.MAX_VALUE},
                TraceReader.read(trace, TraceFormat.LIS));
    }

    @Test
    void aTraceMayExpandToExactlyTheLimit() throws IOException {
        TraceReader.RequestLimit three = new TraceReader.RequestLimit(3, "this test");
        assertArrayEquals(new long[] {5, 6, 7}, readText("5 2 0 0\n7 1 0 1\n", three));
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> readText("5 2 0 0\n7 2 0 1\n", three));
        assertEquals("limited:2: the trace expands to more than 3 requests, the most this test allows",
                e.getMessage());
        assertEquals("limited", e.source());
        assertEquals("the trace expands to more than 3 requests, the most this test allows", e.problem());
    }

    private static long[] readText(String text, TraceReader.RequestLimit limit) throws IOException {
        return TraceReader.read(new BufferedReader(new StringReader(text)), "limited", Optional.of(TraceFormat.LIS),
                limit);
    }

    @ParameterizedTest(name = "a file of just the {1} byte-order mark {0} is refused")
    @CsvSource({"00 00 fe ff, UTF-32", "ff fe 00 00, UTF-32", "ef bb bf, UTF-8", "fe ff, UTF-16", "ff fe, UTF-16"})
    void byteOrderMarksAreNamed(String hex, String encoding) throws IOException {
        String[] digits = hex.split(" ");
        byte[] bytes = new byte[digits.length];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(digits[i], 16);
        }
        Path trace = Files.write(dir.resolve("bom.trace"), bytes);
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.read(trace));
        assertEquals(trace + ":1: the file starts with a " + encoding + " byte-order mark; expected plain UTF-8 "
                + "(ASCII) text without one", e.getMessage());
    }

    @Test
    void aRefusedStreamIsClosed() {
        boolean[] closed = {false};
        InputStream binary = new ByteArrayInputStream(new byte[] {'1', 0, '2'}) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceFile.open(binary, "nul"));
        assertTrue(e.getMessage().startsWith("nul:1: binary data (a NUL byte at offset 1 "), e.getMessage());
        assertTrue(closed[0], "TraceFile.open refused the stream but left it open (no caller can close it)");
    }

    @Test
    void requestLimitsRangeFromZeroToTheLargestArray() {
        assertEquals(0, new TraceReader.RequestLimit(0, "none").requests());
        assertEquals(Integer.MAX_VALUE - 8, new TraceReader.RequestLimit(Integer.MAX_VALUE - 8, "all").requests());
        assertThrows(IllegalArgumentException.class, () -> new TraceReader.RequestLimit(-1, "negative"));
        assertThrows(IllegalArgumentException.class, () -> new TraceReader.RequestLimit(Integer.MAX_VALUE - 7, "x"));
    }

    @Test
    void formatsPrintAsTheirCommandLineNames() {
        assertEquals("lirs", TraceFormat.LIRS.toString());
        assertEquals("lis", TraceFormat.LIS.toString());
    }

    @Test
    void gzipAndPlainFilesReadTheSame() throws IOException {
        String lis = "10 2 0 0\n20 1 4 1\n";
        String lirs = "4\n*\n5\n";
        assertArrayEquals(TraceReader.read(plain("a.lis", lis)), TraceReader.read(gzip("a.lis.gz", lis)));
        assertArrayEquals(TraceReader.read(plain("a.trace", lirs)), TraceReader.read(gzip("a.trace.gz", lirs)));
        assertArrayEquals(new long[] {10, 11, 20}, TraceReader.read(gzip("no-suffix", lis)));
    }

    @ParameterizedTest(name = "line \"{0}\" is rejected with \"{1}\"")
    @CsvSource(delimiter = '|', value = {
        "1 2 0       | expected 4 fields (starting_block number_of_blocks ignore request_number), got 3 in \"1 2 0\"",
        "1 2 0 0 9   | expected 4 fields (starting_block number_of_blocks ignore request_number), got 5 in \"1 2 0 0 9\"",
        "1x 2 0 0    | expected starting_block as an integer, got \"1x\"",
        "1 two 0 0   | expected number_of_blocks as an integer, got \"two\"",
        "1 2 z 0     | expected the third field (ignore) as an integer, got \"z\"",
        "1 2 0 0.5   | expected request_number as an integer, got \"0.5\"",
        "-1 2 0 0    | starting_block must be >= 0, was -1",
        "1 0 0 0     | number_of_blocks must be >= 1, was 0",
        "9223372036854775807 2 0 0 | starting_block + number_of_blocks - 1 must be <= 9223372036854775807, was 9223372036854775807 + 2 - 1",
    })
    void lisBadLineNamesFileLineAndProblem(String badLine, String problem) throws IOException {
        Path trace = gzip("bad.lis.gz", "1 1 0 0\n\n" + badLine + "\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> TraceReader.read(trace, TraceFormat.LIS));
        assertEquals(trace + ":3: " + problem, e.getMessage());
    }

    @Test
    void detectorTellsFormatsByFirstDataLine() throws IOException {
        assertEquals(TraceFormat.LIRS, TraceReader.detect(plain("a", "*\n\n42\n")));
        assertEquals(TraceFormat.LIS, TraceReader.detect(gzip("b", "\n*\n42 8 0 1\n")));
        assertEquals(TraceFormat.LIS, TraceReader.detect(plain("c", "42 8 0\n")));
        assertEquals(TraceFormat.LIRS, TraceReader.detect(plain("empty", "\n*\n")));
        assertArrayEquals(new long[] {42, 43}, TraceReader.read(plain("d", "42 2 0 1\n")));
    }

    @ParameterizedTest(name = "first data line \"{0}\" fits no format")
    @ValueSource(strings = {"1 2", "1 2 x", "a b c d"})
    void detectorRejectsLineOfNeitherFormat(String line) throws IOException {
        Path trace = plain("odd", "*\n" + line + "\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.detect(trace));
        assertEquals(trace + ":2: cannot tell the trace format: expected one block number (LIRS) or at least 3 "
                + "integer fields (.lis), got \"" + line + "\"", e.getMessage());
    }

    @Test
    void overrideReadsAsTheNamedFormat() throws IOException {
        Path trace = plain("lis-looking", "42 8 0 1\n");
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> TraceReader.read(trace, TraceFormat.named("LIRS")));
        assertEquals(trace + ":1: expected a block number, got \"42 8 0 1\"", e.getMessage());
        assertEquals(TraceFormat.LIS, TraceFormat.named("lis"));
    }

    @Test
    void unknownFormatNameIsRejectedWithTheRule() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TraceFormat.named("zst"));
        assertEquals("format must be one of lirs, lis, was \"zst\"", e.getMessage());
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("missing.trace");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> TraceReader.read(missing));
        assertEquals("trace file does not exist: " + missing, e.getMessage());
    }
}
