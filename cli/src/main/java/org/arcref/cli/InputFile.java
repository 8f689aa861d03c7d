package org.arcref.cli;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;

/**
 * A file argument of {@code arc}: a path, or {@code -} for standard input, read once from start to end (so pipes and
 * {@code <(zcat …)} work), plain, gzip or zstd, told apart by content and decoded by {@link TraceFile}. Files are
 * opened as {@link FileInputStream}s: the stream of {@link Files#newInputStream} answers {@code available()} with a
 * seek, which fails on a pipe ({@code Illegal seek}) as soon as a buffered reader asks.
 *
 * <p>Every failure is one of two exceptions with a one-line message: {@link UncheckedIOException} naming the file
 * and the problem in words (does not exist, is a directory, corrupt gzip or zstd data, truncated), or
 * {@link TraceFormatException} from the reader at the offending line. Every read polls {@link Interruption}: after
 * Ctrl-C the next read throws {@link Interruption.Interrupted} naming the file and how much of it was read.
 */
final class InputFile {

    /** The argument that stands for standard input. */
    static final String STDIN = "-";

    private InputFile() {
    }

    /** Reads the text of a file to its end, once. */
    @FunctionalInterface
    interface Reader<T> {
        T read(BufferedReader in, String source) throws IOException;
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
     * Opens and reads a file argument once, as bytes, decompressed by {@link TraceFile#read} (gzip and zstd told by
     * content; when the reader rejects content that corrupt compressed data decoded to, the corruption is reported).
     *
     * @param path the path, or {@code -}
     * @param kind what the file is, for messages ({@code trace file})
     * @param stdin standard input
     * @param reader reads the bytes
     * @return what the reader returned
     * @throws UncheckedIOException naming the file and the problem if it cannot be read or decompressed
     * @throws TraceFormatException from the reader
     */
    static <T> T readBytes(Path path, String kind, InputStream stdin, TraceFile.ContentReader<T> reader) {
        String source = name(path);
        try {
            return TraceFile.read(new Polled(open(path, kind, stdin), kind + " " + source), source, reader);
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem(kind, source, e), e);
        }
    }

    private static InputStream open(Path path, String kind, InputStream stdin) {
        if (isDash(path)) {
            return stdin;
        }
        if (!Files.exists(path)) {
            String builtin = ConformanceTrace.allBuiltinNames().contains(path.toString())
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
}
