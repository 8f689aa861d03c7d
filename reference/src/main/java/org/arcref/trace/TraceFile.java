package org.arcref.trace;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Opens trace files, plain or gzip-compressed, telling the two apart by content (the gzip magic
 * bytes {@code 1f 8b}), never by the file name.
 */
public final class TraceFile {

    private static final int GZIP_MAGIC_0 = 0x1f;
    private static final int GZIP_MAGIC_1 = 0x8b;

    private TraceFile() {
    }

    /**
     * Opens a trace for reading as UTF-8 text.
     *
     * @param path the trace file
     * @return a reader positioned at the first line; the caller closes it
     * @throws UncheckedIOException naming the file if it does not exist or cannot be read
     */
    public static BufferedReader open(Path path) {
        return open(path, "trace file");
    }

    /**
     * Opens a file of traces' plain-or-gzip kind for reading as UTF-8 text.
     *
     * @param path the file
     * @param kind what the file is, for the messages ({@code conformance file})
     * @return a reader positioned at the first line; the caller closes it
     * @throws UncheckedIOException naming the kind and the file if it does not exist or cannot be read
     */
    public static BufferedReader open(Path path, String kind) {
        try {
            return new BufferedReader(new InputStreamReader(decompressIfGzip(Files.newInputStream(path)),
                    StandardCharsets.UTF_8), 1 << 16);
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException(kind + " does not exist: " + path, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + kind + " " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * Wraps a stream in a gzip decoder when it starts with the gzip magic bytes.
     *
     * @param raw the stream as stored
     * @return a stream of the decompressed content
     * @throws IOException if the stream cannot be read
     */
    public static InputStream decompressIfGzip(InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 1 << 16);
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        if (b0 == GZIP_MAGIC_0 && b1 == GZIP_MAGIC_1) {
            return new GZIPInputStream(in, 1 << 16);
        }
        return in;
    }
}
