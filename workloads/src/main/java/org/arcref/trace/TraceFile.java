package org.arcref.trace;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.ZipException;

/**
 * Opens trace files, plain, gzip- or zstd-compressed, telling them apart by content (the gzip magic
 * bytes {@code 1f 8b}, the zstd frame magic {@code 28 b5 2f fd}), never by the file name, and reading the stream
 * only once, so that a pipe ({@code /dev/stdin}, {@code <(zcat …)}) reads as well as a file. This is the one place
 * where trace content is decoded: the readers here and every file argument of {@code arc} come through it. Files
 * are opened as {@link FileInputStream}s: the stream of {@code Files.newInputStream} answers {@code available()}
 * with a seek, which fails on a pipe ({@code Illegal seek}) as soon as a buffered reader asks.
 *
 * <p>Decoding ({@link #decompress}) decodes one layer of compression, gzip or zstd. Data compressed twice (content
 * that, once decoded, starts with the gzip or zstd magic again: gzip inside gzip, zstd inside gzip, gzip inside zstd,
 * zstd inside zstd) is refused with an {@link IOException} that says so and names both layers, rather than decoded
 * again: a second layer is most likely an accident ({@code gzip} run on a {@code .gz} file) that {@code gzip -dc}
 * or {@code zstd -dc} undoes, and one layer bounds the decoders a file can stack. Before handing out a
 * reader it looks at the first {@value #PREFIX} bytes of the content (after decompression) and rejects, as a
 * {@link TraceFormatException} at line 1, content that is not text a trace reader could parse: a byte-order mark
 * (UTF-8, UTF-16 or UTF-32) and binary data (a NUL byte). {@link #problem} names a read failure in words: corrupt
 * gzip data, a truncated file, data after the end of the gzip data ({@link GzipStream}), corrupt or truncated zstd
 * data ({@link ZstdStream}), data compressed twice.
 */
public final class TraceFile {

    /** How many bytes of the content are checked for a byte-order mark and binary data. */
    public static final int PREFIX = 4096;

    private static final int[] GZIP_MAGIC = {0x1f, 0x8b};
    private static final int[] ZSTD_MAGIC = {0x28, 0xb5, 0x2f, 0xfd};

    private TraceFile() {
    }

    /**
     * Opens a trace for reading as UTF-8 text.
     *
     * @param path the trace file
     * @return a reader positioned at the first line; the caller closes it
     * @throws UncheckedIOException naming the file if it does not exist or cannot be read
     * @throws TraceFormatException at line 1 if the content is not text (see the class comment)
     */
    public static BufferedReader open(Path path) {
        return open(path, "trace file");
    }

    /** Reads the decompressed bytes of a trace to their end, once. */
    @FunctionalInterface
    public interface ContentReader<T> {
        /**
         * @param content the decompressed bytes
         * @param source the name used in error messages
         * @return what was read
         * @throws IOException if the content cannot be read or decompressed
         */
        T read(InputStream content, String source) throws IOException;
    }

    /**
     * Opens a file of traces' plain, gzip or zstd kind for reading as UTF-8 text.
     *
     * @param path the file
     * @param kind what the file is, for the messages ({@code conformance file})
     * @return a reader positioned at the first line; the caller closes it
     * @throws UncheckedIOException naming the kind and the file if it does not exist or cannot be read
     * @throws TraceFormatException at line 1 if the content is not text (see the class comment)
     */
    public static BufferedReader open(Path path, String kind) {
        if (!Files.exists(path)) {
            throw new UncheckedIOException(kind + " does not exist: " + path, new NoSuchFileException(path.toString()));
        }
        try {
            return open(new FileInputStream(path.toFile()), path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(problem(kind, path.toString(), e), e);
        }
    }

    /**
     * Opens a stream of a trace's kind, plain, gzip or zstd, for reading as UTF-8 text; it is read once, from
     * where it stands.
     *
     * @param raw the bytes as stored; closed with the reader
     * @param source the name used in error messages
     * @return a reader positioned at the first line; the caller closes it
     * @throws IOException if the stream cannot be read or its gzip header is corrupt
     * @throws TraceFormatException at {@code source:1} if the content is not text (see the class comment)
     */
    public static BufferedReader open(InputStream raw, String source) throws IOException {
        return text(decompress(raw), source);
    }

    /**
     * Reads a stream of a trace's kind, plain, gzip or zstd, once, decompressed, and closes it.
     *
     * <p>Compressed data is checked only as far as it is read, and a corrupt stream may decode to wrong bytes before
     * its checksum shows it; so when the reader rejects decompressed content, the rest of the data is decoded, and
     * if that fails the failure is the one thrown (corrupt gzip data rather than a bad line), the reader's
     * rejection suppressed in it.
     *
     * @param raw the bytes as stored; closed before this returns
     * @param source the name used in error messages
     * @param reader reads the decompressed bytes
     * @return what the reader returned
     * @throws IOException if the stream cannot be read or decompressed ({@link #problem} words it)
     * @throws TraceFormatException from the reader
     */
    public static <T> T read(InputStream raw, String source, ContentReader<T> reader) throws IOException {
        try (raw; InputStream content = decompress(raw)) {
            try {
                return reader.read(new KeptOpen(content), source);
            } catch (TraceFormatException e) {
                if (content instanceof Decompressed) {
                    drain(content, e);
                }
                throw e;
            }
        }
    }

    /**
     * Decodes the rest of compressed content, so that corrupt data is reported as such; {@code bad} is kept. The
     * reader may have closed what it was given ({@link #text} closes it when it rejects the content), which is why
     * it was given a {@link KeptOpen} view: {@code content} is still open here.
     */
    private static void drain(InputStream content, TraceFormatException bad) throws IOException {
        try {
            content.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            e.addSuppressed(bad);
            throw e;
        }
    }

    /**
     * Opens decompressed content for reading as UTF-8 text; it is read once, from where it stands.
     *
     * @param content the bytes of the text; closed with the reader
     * @param source the name used in error messages
     * @return a reader positioned at the first line; the caller closes it
     * @throws IOException if the stream cannot be read
     * @throws TraceFormatException at {@code source:1} if the content is not text (see the class comment)
     */
    public static BufferedReader text(InputStream content, String source) throws IOException {
        BufferedInputStream in = new BufferedInputStream(content, 1 << 16);
        try {
            in.mark(PREFIX);
            byte[] prefix = in.readNBytes(PREFIX);
            in.reset();
            checkText(prefix, source);
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /**
     * Names a failure to read a file of this kind, for a one-line message.
     *
     * @param kind what the file is ({@code trace file})
     * @param source its name
     * @param e the failure
     * @return {@code cannot read KIND SOURCE: PROBLEM}, the problem in words where it is known
     */
    public static String problem(String kind, String source, IOException e) {
        String what;
        if (e instanceof EOFException) {
            what = "truncated file: the compressed data ends early";
        } else if (e instanceof ZipException) {
            what = "corrupt gzip data (" + e.getMessage() + ")";
        } else {
            what = e.getMessage();
        }
        return "cannot read " + kind + " " + source + ": " + what;
    }

    /**
     * Decodes a stream of a trace's kind by its content: zstd data ({@link ZstdStream}) and gzip data
     * ({@link GzipStream}) are decoded, one layer; other bytes are passed on as they are.
     *
     * @param raw the stream as stored, read once from where it stands; closed with the stream returned, or before
     *     this throws
     * @return a stream of the decompressed content
     * @throws IOException if the stream cannot be read, if its gzip header or the start of the compressed data is
     *     corrupt, or if the data is compressed twice (the class comment; the message says {@code compressed
     *     twice} and names both layers)
     */
    public static InputStream decompress(InputStream raw) throws IOException {
        InputStream opened = new BufferedInputStream(raw, 1 << 16); // the last stream opened: closing it closes raw
        try {
            String outer = compression(opened);
            if (outer == null) {
                return opened;
            }
            opened = outer.equals("gzip") ? new GzipStream(opened) : new ZstdStream(opened);
            Decompressed content = new Decompressed(opened);
            String inner = compression(content);
            if (inner != null) {
                throw new IOException("the data is compressed twice (" + inner + " data inside " + outer
                        + " data); one layer of gzip or zstd is decoded: decompress the outer one first ("
                        + outer + " -dc)");
            }
            return content;
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /**
     * Tells compressed data by its first bytes, and leaves the stream where it stood.
     *
     * @param in the data; it supports {@code mark}
     * @return {@code gzip}, {@code zstd}, or null for other data
     */
    private static String compression(InputStream in) throws IOException {
        in.mark(ZSTD_MAGIC.length);
        byte[] head = in.readNBytes(ZSTD_MAGIC.length);
        in.reset();
        if (starts(head, GZIP_MAGIC)) {
            return "gzip";
        }
        return starts(head, ZSTD_MAGIC) ? "zstd" : null;
    }

    /** Decompressed content: the stream {@link #decompress} gives for gzip or zstd data. */
    private static final class Decompressed extends BufferedInputStream {
        Decompressed(InputStream decoder) {
            super(decoder, 1 << 16);
        }
    }

    /** A view of content that the reader given it may close: closing it leaves the content open. */
    private static final class KeptOpen extends FilterInputStream {
        KeptOpen(InputStream content) {
            super(content);
        }

        @Override
        public void close() {
            // the content is closed by TraceFile.read, after drain has read it
        }
    }

    private static void checkText(byte[] prefix, String source) {
        String bom = byteOrderMark(prefix);
        if (bom != null) {
            throw new TraceFormatException(source, 1, "the file starts with a " + bom + " byte-order mark; "
                    + "expected plain UTF-8 (ASCII) text without one");
        }
        for (int i = 0; i < prefix.length; i++) {
            if (prefix[i] == 0) {
                throw new TraceFormatException(source, 1, "binary data (a NUL byte at offset " + i
                        + " of the content); expected a text trace, plain or compressed");
            }
        }
    }

    private static String byteOrderMark(byte[] p) {
        if (starts(p, 0x00, 0x00, 0xfe, 0xff) || starts(p, 0xff, 0xfe, 0x00, 0x00)) {
            return "UTF-32";
        }
        if (starts(p, 0xef, 0xbb, 0xbf)) {
            return "UTF-8";
        }
        if (starts(p, 0xfe, 0xff) || starts(p, 0xff, 0xfe)) {
            return "UTF-16";
        }
        return null;
    }

    private static boolean starts(byte[] p, int... bytes) {
        if (p.length < bytes.length) {
            return false;
        }
        for (int i = 0; i < bytes.length; i++) {
            if ((p[i] & 0xff) != bytes[i]) {
                return false;
            }
        }
        return true;
    }
}
