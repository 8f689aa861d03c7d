package org.arcref.cli;

import io.airlift.compress.MalformedInputException;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.trace.GzipStream;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;

/**
 * A file argument of {@code arc}: a path, or {@code -} for standard input, read once from start to end (so pipes and
 * {@code <(zcat …)} work), plain, gzip or zstd, told apart by content. Files are opened as {@link FileInputStream}s:
 * the stream of {@link Files#newInputStream} answers {@code available()} with a seek, which fails on a pipe
 * ({@code Illegal seek}) as soon as a buffered reader asks. zstd is decoded here, with aircompressor (pure
 * Java), so that the reference module's readers ({@link TraceFile}) stay free of dependencies: they receive the
 * decompressed stream and handle plain and gzip themselves.
 *
 * <p>Every failure is one of two exceptions with a one-line message: {@link UncheckedIOException} naming the file
 * and the problem in words (does not exist, is a directory, corrupt gzip or zstd data, truncated), or
 * {@link TraceFormatException} from the reader at the offending line. Every read polls {@link Interruption}: after
 * Ctrl-C the next read throws {@link Interruption.Interrupted} naming the file and how much of it was read.
 */
final class InputFile {

    /** The argument that stands for standard input. */
    static final String STDIN = "-";

    private static final int[] ZSTD_MAGIC = {0x28, 0xb5, 0x2f, 0xfd};

    private InputFile() {
    }

    /** Reads the text of a file to its end, once. */
    @FunctionalInterface
    interface Reader<T> {
        T read(BufferedReader in, String source) throws IOException;
    }

    /** Reads the decompressed bytes of a file to their end, once. */
    @FunctionalInterface
    interface ByteReader<T> {
        T read(InputStream content, String source) throws IOException;
    }

    /**
     * @param path a file argument
     * @return whether it is {@code -}: standard input for a file read, standard output for one written
     */
    static boolean isDash(Path path) {
        return path.toString().equals(STDIN);
    }

    /** @return the name of the file for messages: the path as given, or {@code <stdin>} */
    static String name(Path path) {
        return isDash(path) ? "<stdin>" : path.toString();
    }

    /**
     * Opens and reads a file argument once, as text.
     *
     * @param path the path, or {@code -}
     * @param kind what the file is, for messages ({@code trace file})
     * @param stdin standard input
     * @param reader reads the text
     * @return what the reader returned
     * @throws UncheckedIOException naming the file and the problem if it cannot be read
     * @throws TraceFormatException from the reader, or at line 1 if the content is not text
     */
    static <T> T read(Path path, String kind, InputStream stdin, Reader<T> reader) {
        return readBytes(path, kind, stdin, (content, source) -> {
            try (BufferedReader in = TraceFile.text(content, source)) {
                return reader.read(in, source);
            }
        });
    }

    /**
     * Opens and reads a file argument once, as bytes, decompressed (gzip and zstd told by content).
     *
     * <p>Compressed data is checked only as far as it is read, and a corrupt stream may decode to wrong bytes before
     * its checksum shows it; so when the reader rejects decompressed content, the rest of the data is decoded, and
     * if that fails the failure is the one reported (corrupt gzip data rather than a bad line).
     *
     * @param path the path, or {@code -}
     * @param kind what the file is, for messages ({@code trace file})
     * @param stdin standard input
     * @param reader reads the bytes
     * @return what the reader returned
     * @throws UncheckedIOException naming the file and the problem if it cannot be read or decompressed
     * @throws TraceFormatException from the reader
     */
    static <T> T readBytes(Path path, String kind, InputStream stdin, ByteReader<T> reader) {
        String source = name(path);
        try (InputStream raw = decompressIfZstd(new Polled(open(path, kind, stdin), kind + " " + source));
                InputStream content = TraceFile.decompressIfGzip(raw)) {
            try {
                return reader.read(content, source);
            } catch (TraceFormatException e) {
                if (raw instanceof ZstdContent || content instanceof GzipStream) {
                    drain(content, e);
                }
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem(kind, source, e), e);
        }
    }

    /** Decodes the rest of compressed content, so that corrupt data is reported as such; {@code bad} is kept. */
    private static void drain(InputStream content, TraceFormatException bad) throws IOException {
        try {
            content.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            e.addSuppressed(bad);
            throw e;
        }
    }

    private static InputStream open(Path path, String kind, InputStream stdin) {
        if (isDash(path)) {
            return stdin;
        }
        if (!Files.exists(path)) {
            String builtin = ConformanceTrace.builtinNames().contains(path.toString())
                    ? " (" + path + " is a built-in conformance trace, which arc conform " + path + " runs)" : "";
            throw new UncheckedIOException(kind + " does not exist: " + path + builtin,
                    new NoSuchFileException(path.toString()));
        }
        if (Files.isDirectory(path)) {
            throw new UncheckedIOException(kind + " must be a file, was a directory: " + path,
                    new IOException(path.toString()));
        }
        try {
            return new FileContent(path);
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem(kind, path.toString(), e), e);
        }
    }

    private static InputStream decompressIfZstd(InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(ZSTD_MAGIC.length);
        boolean zstd = true;
        for (int b : ZSTD_MAGIC) {
            zstd &= in.read() == b;
        }
        in.reset();
        return zstd ? new ZstdContent(new ZstdInputStream(in)) : in;
    }

    /** A file's bytes as read, with a poll of {@link Interruption} before every read. */
    private static final class Polled extends FilterInputStream {
        private final String what;
        private long bytes;

        Polled(InputStream in, String what) {
            super(in);
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            Interruption.check("reading " + what + " (after " + bytes + " bytes); no result");
            int n = super.read(b, off, len);
            bytes += Math.max(0, n);
            return n;
        }
    }

    /**
     * A file's bytes, for files without a size as well: {@code available()} of a {@link FileInputStream} fails with
     * {@code Invalid argument} on {@code /proc} files, and a buffered reader asks it; it is only a hint, and 0 (no
     * bytes known to be ready) is always a valid answer, so a failure answers that.
     */
    private static final class FileContent extends FileInputStream {

        FileContent(Path path) throws IOException {
            super(path.toFile());
        }

        @Override
        public int available() {
            try {
                return super.available();
            } catch (IOException e) {
                return 0;
            }
        }
    }

    /**
     * The decoded content of a zstd stream, its decoder's failures turned into {@link IOException}s that say
     * {@code zstd}: the decoder throws an unchecked {@link MalformedInputException} on corrupt data and a bare
     * {@code IOException("Not enough input bytes")} on a truncated file.
     */
    private static final class ZstdContent extends FilterInputStream {

        ZstdContent(InputStream decoder) {
            super(decoder);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (MalformedInputException e) {
                throw new IOException("corrupt zstd data (" + e.getMessage() + ")", e);
            } catch (IOException e) {
                throw new IOException("corrupt or truncated zstd data (" + e.getMessage() + ")", e);
            }
        }
    }
}
