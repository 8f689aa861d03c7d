package org.arcref.trace;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.zstd.ZstdCompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.zip.GZIPOutputStream;
import java.util.zip.ZipException;
import org.junit.jupiter.api.Test;

/**
 * The formats of {@link RequestFormat} at the reader's level: detection from the first data line, the page
 * identities each format gives, the csv layout's rules, the gzip decoder's checks ({@code GzipStream}), and one layer
 * of compression decoded.
 */
class RequestFormatTest {

    private static long[] read(String text, Optional<RequestFormat> format, TraceOptions options) throws IOException {
        return TraceReader.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t", format, options,
                TraceReader.RequestLimit.ARRAY);
    }

    @Test
    void theFirstDataLineTellsMsrTwitterLirsAndLisApart() {
        assertEquals(RequestFormat.MSR, RequestFormat.ofFirstLine("1,h,0,Write,0,512,3", "t", 1));
        assertEquals(RequestFormat.TWITTER, RequestFormat.ofFirstLine("0,k,1,2,c,gets,0", "t", 1));
        assertEquals(RequestFormat.LIRS, RequestFormat.ofFirstLine("42", "t", 1));
        assertEquals(RequestFormat.LIS, RequestFormat.ofFirstLine("0 8 0 1", "t", 1));
        TraceFormatException e = assertThrows(TraceFormatException.class,
                () -> RequestFormat.ofFirstLine("1,h,0,Trim,0,512,3 x", "t", 3));
        assertEquals(3, e.line());
        assertTrue(e.problem().startsWith("cannot tell the trace format"), e.getMessage());
        assertEquals(RequestFormat.ORACLE_GENERAL, RequestFormat.named("ORACLEGENERAL"));
    }

    @Test
    void keysAreNumberedByFirstAppearanceAndMsrDisksLiveInTheirOwnSpaces() throws IOException {
        assertArrayEquals(new long[] {0, 1, 0, 2}, read("0,b,1,2,c,get,0\n1,a,1,2,c,set,0\n2,b,1,2,c,get,0\n"
                + "3,a,b,1,2,c,get,0\n", Optional.empty(), TraceOptions.DEFAULTS), "the last key, a,b, holds a comma");
        long disk1 = 1L << 43;
        assertArrayEquals(new long[] {0, 1, disk1 + 2, 0}, read("1,h,0,Read,100,4000,1\n2,h,1,Read,8192,1,1\n"
                + "3,h,0,Write,0,1,1\n", Optional.empty(), TraceOptions.DEFAULTS));
        TraceOptions csv = new TraceOptions(4096, Optional.of(new CsvLayout(2, OptionalInt.empty(),
                OptionalInt.empty(), true, '|')));
        assertArrayEquals(new long[] {0, 1, 0, 2}, read("id|key\n1|7\n2|07\n3|7\n4|*\n", Optional.of(RequestFormat.CSV),
                csv), "keys are text: 7 and 07 differ, and * is a key in csv");
    }

    @Test
    void csvLayoutNamesTheParameterTheRuleAndTheValue() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> new CsvLayout(0, OptionalInt.empty(), OptionalInt.empty(), false, ','));
        assertEquals("obj-id-col must be >= 1 (columns are numbered from 1), was 0", zero.getMessage());
        IllegalArgumentException digit = assertThrows(IllegalArgumentException.class,
                () -> new CsvLayout(1, OptionalInt.empty(), OptionalInt.empty(), false, '7'));
        assertEquals("delimiter must not be a line end, a digit, - or ., was \"7\"", digit.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new TraceOptions(0, Optional.empty()));
    }

    @Test
    void oracleGeneralOfNoBytesHasNoRequests() throws IOException {
        assertArrayEquals(new long[0], TraceReader.read(InputStream.nullInputStream(), "empty",
                Optional.of(RequestFormat.ORACLE_GENERAL), TraceOptions.DEFAULTS, TraceReader.RequestLimit.ARRAY));
    }

    private static byte[] gzip(String text) throws IOException {
        return gzip(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(b)) {
            z.write(content);
        }
        return b.toByteArray();
    }

    private static String decode(byte[] gz) throws IOException {
        try (InputStream in = TraceFile.decompress(new ByteArrayInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /**
     * Data as a pipe gives it: a few bytes a read, and {@code available()} 0 (nothing known to be ready), which
     * made Java 17's GZIPInputStream stop after the first member.
     */
    private static InputStream trickle(byte[] data) {
        return new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 3));
            }

            @Override
            public synchronized int available() {
                return 0;
            }
        };
    }

    private static String decodeTrickled(byte[] gz) throws IOException {
        try (InputStream in = TraceFile.decompress(trickle(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void gzipReadsConcatenatedMembersAndChecksEveryTrailerAndWhatFollows() throws IOException {
        byte[] a = gzip("1\n2\n");
        byte[] b = gzip("3\n");
        byte[] both = concat(a, b);
        assertEquals("1\n2\n3\n", decode(both));
        assertEquals("1\n2\n3\n", decodeTrickled(both), "every member is read from a pipe");
        assertEquals("1\n2\n3\n1\n2\n", decodeTrickled(concat(both, a)));
        String trailing = "trailing garbage after the gzip data, at byte offset ";
        byte[] garbage = Arrays.copyOf(a, a.length + 3);
        assertEquals(trailing + a.length, assertThrows(IOException.class, () -> decode(garbage)).getMessage());
        assertEquals(trailing + a.length, assertThrows(IOException.class, () -> decodeTrickled(garbage))
                .getMessage());
        byte[] longGarbage = concat(both, "not gzip, and more than 26 bytes of it\n".getBytes(StandardCharsets.UTF_8));
        assertEquals(trailing + both.length, assertThrows(IOException.class, () -> decode(longGarbage))
                .getMessage());
        byte[] cutHeader = concat(a, Arrays.copyOf(b, 5));
        assertEquals(trailing + a.length, assertThrows(IOException.class, () -> decode(cutHeader)).getMessage(),
                "a member cut in its header is not a member");
        assertEquals(trailing + a.length, assertThrows(IOException.class, () -> decodeTrickled(cutHeader))
                .getMessage());
        String mismatch = "CRC-32 or length mismatch: the data decodes to other bytes than were compressed";
        byte[] badLength = a.clone();
        badLength[a.length - 1] ^= 1;
        assertEquals(mismatch, assertThrows(ZipException.class, () -> decode(badLength)).getMessage());
        byte[] badCrc = a.clone();
        badCrc[a.length - 8] ^= 1;
        assertEquals(mismatch, assertThrows(ZipException.class, () -> decode(badCrc)).getMessage());
        byte[] badSecondCrc = concat(a, b);
        badSecondCrc[badSecondCrc.length - 8] ^= 1;
        assertEquals(mismatch, assertThrows(ZipException.class, () -> decode(badSecondCrc)).getMessage(),
                "the second member's trailer, read in GZIPInputStream's nested read, is worded too");
        assertThrows(EOFException.class, () -> decode(Arrays.copyOf(a, a.length - 4)));
        assertThrows(EOFException.class, () -> decode(Arrays.copyOf(a, 5)), "cut in the first member's header");
        assertThrows(EOFException.class, () -> decode(concat(a, Arrays.copyOf(b, b.length - 4))),
                "cut in the second member's trailer");
    }

    /** One zstd frame of the content, compressed in one call. */
    private static byte[] zstd(byte[] content) {
        ZstdCompressor compressor = new ZstdCompressor();
        byte[] frame = new byte[compressor.maxCompressedLength(content.length)];
        return Arrays.copyOf(frame, compressor.compress(content, 0, content.length, frame, 0, frame.length));
    }

    /** zstd is told by its frame magic; its failures say zstd. */
    @Test
    void zstdIsToldByContentAndItsFailuresAreNamed() throws IOException {
        String text = randomLines(5000);
        byte[] zs = zstd(text.getBytes(StandardCharsets.UTF_8));
        assertEquals(text, decode(zs));
        byte[] corrupt = zs.clone();
        for (int i = 20; i < corrupt.length - 20; i += 7) {
            corrupt[i] ^= 0x5a;
        }
        IOException bad = assertThrows(IOException.class, () -> decode(corrupt));
        assertTrue(TraceFile.problem("trace file", "t.zst", bad).startsWith(
                "cannot read trace file t.zst: corrupt zstd data ("), bad.getMessage());
        IOException truncated = assertThrows(IOException.class, () -> decode(Arrays.copyOf(zs, zs.length / 2)));
        assertTrue(truncated.getMessage().startsWith("corrupt or truncated zstd data ("), truncated.getMessage());
    }

    /** One layer of compression is decoded: data compressed twice, in any of the four ways, is refused so. */
    @Test
    void dataCompressedTwiceIsRefusedNamingBothLayers() throws IOException {
        byte[] gz = gzip("1\n2\n");
        byte[] zs = zstd("1\n2\n".getBytes(StandardCharsets.UTF_8));
        String twice = "the data is compressed twice (%s data inside %s data); one layer of gzip or zstd is decoded: "
                + "decompress the outer one first (%s -dc)";
        assertEquals(String.format(twice, "gzip", "gzip", "gzip"), assertThrows(IOException.class,
                () -> decode(gzip(gz))).getMessage());
        assertEquals(String.format(twice, "zstd", "gzip", "gzip"), assertThrows(IOException.class,
                () -> decode(gzip(zs))).getMessage());
        assertEquals(String.format(twice, "gzip", "zstd", "zstd"), assertThrows(IOException.class,
                () -> decode(zstd(gz))).getMessage());
        assertEquals(String.format(twice, "zstd", "zstd", "zstd"), assertThrows(IOException.class,
                () -> decode(zstd(zs))).getMessage());
        IOException e = assertThrows(IOException.class, () -> TraceFile.read(new ByteArrayInputStream(gzip(zs)), "t",
                (content, source) -> new String(content.readAllBytes(), StandardCharsets.UTF_8)));
        assertEquals("cannot read trace file t.gz: " + String.format(twice, "zstd", "gzip", "gzip"),
                TraceFile.problem("trace file", "t.gz", e));
        assertEquals("1\n2\n", decode(gz), "one layer decodes");
        boolean[] closed = {false};
        InputStream raw = new ByteArrayInputStream(gzip(gz)) {
            @Override
            public void close() {
                closed[0] = true;
            }
        };
        assertThrows(IOException.class, () -> TraceFile.decompress(raw));
        assertTrue(closed[0], "decompress closes the stream it was given before it throws");
    }

    /** Numbers that compress badly, so that the compressed form has bytes to corrupt and several zstd blocks. */
    private static String randomLines(int lines) {
        StringBuilder text = new StringBuilder();
        java.util.Random r = new java.util.Random(3);
        for (int i = 0; i < lines; i++) {
            text.append(r.nextInt(1_000_000)).append('\n');
        }
        return text.toString();
    }

    /**
     * A reader's rejection of what corrupt compressed data decoded to gives way to the corruption, kept suppressed
     * (here the reader rejects the first line, and the corruption is in the last block).
     */
    @Test
    void aRejectedLineOfCorruptCompressedDataIsReportedAsTheCorruption() throws IOException {
        byte[] zs = zstd(randomLines(200_000).getBytes(StandardCharsets.UTF_8));
        byte[] corrupt = zs.clone();
        for (int i = corrupt.length * 9 / 10; i < corrupt.length - 20; i += 7) {
            corrupt[i] ^= 0x5a;
        }
        TraceFormatException rejected = new TraceFormatException("t", 1, "rejected");
        IOException e = assertThrows(IOException.class, () -> TraceFile.read(new ByteArrayInputStream(corrupt), "t",
                (content, source) -> {
                    throw rejected;
                }));
        assertTrue(e.getMessage().contains("zstd"), e.getMessage());
        assertEquals(List.of(rejected), List.of(e.getSuppressed()));
        byte[] plain = "1\n2\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(rejected, assertThrows(TraceFormatException.class, () -> TraceFile.read(
                new ByteArrayInputStream(plain), "t", (content, source) -> {
                    throw rejected;
                })), "uncompressed content has no checksum to consult");
        assertEquals("1\n2\n", TraceFile.read(new ByteArrayInputStream(gzip("1\n2\n")), "t",
                (content, source) -> new String(content.readAllBytes(), StandardCharsets.UTF_8)));
    }

    /**
     * A reader may close the content it rejects ({@link TraceFile#text} does): the rest is decoded all the same, the
     * corruption reported, and whole data gives the rejection (it was a NullPointerException of a closed inflater
     * for gzip, and {@code Stream closed} for zstd).
     */
    @Test
    void aReaderThatClosesTheContentItRejectsStillGetsTheRestDecoded() throws IOException {
        TraceFormatException rejected = new TraceFormatException("t", 1, "rejected");
        TraceFile.ContentReader<Void> closing = (content, source) -> {
            content.close();
            throw rejected;
        };
        byte[] text = randomLines(200_000).getBytes(StandardCharsets.UTF_8);
        for (byte[] whole : List.of(gzip(text), zstd(text))) {
            assertEquals(rejected, assertThrows(TraceFormatException.class,
                    () -> TraceFile.read(new ByteArrayInputStream(whole), "t", closing)));
        }
        byte[] gz = gzip(text);
        gz[gz.length - 8] ^= 1;
        ZipException badCrc = assertThrows(ZipException.class, () -> TraceFile.read(new ByteArrayInputStream(gz), "t",
                closing));
        assertEquals(List.of(rejected), List.of(badCrc.getSuppressed()));
        byte[] zs = zstd(text);
        for (int i = zs.length * 9 / 10; i < zs.length - 20; i += 7) {
            zs[i] ^= 0x5a;
        }
        IOException corrupt = assertThrows(IOException.class, () -> TraceFile.read(new ByteArrayInputStream(zs), "t",
                closing));
        assertTrue(corrupt.getMessage().contains("corrupt zstd data"), corrupt.getMessage());
        byte[] marked = text.clone();
        marked[0] = 0;
        TraceFormatException binary = assertThrows(TraceFormatException.class, () -> TraceFile.read(
                new ByteArrayInputStream(gzip(marked)), "t", TraceFile::text));
        assertTrue(binary.getMessage().contains("binary data (a NUL byte at offset 0"), binary.getMessage());
    }
}
