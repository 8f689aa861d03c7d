package org.arcref.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads a whole trace into memory as the sequence of page requests it stands for, one {@code long} per request, in
 * trace order. The block formats LIRS and {@code .lis} are described in {@link TraceFormat}; every format, the
 * key-value and binary ones too, is listed in {@link RequestFormat}. Files may be plain or gzip-compressed, told
 * apart by content ({@link TraceFile}).
 *
 * <p>A trace is read once, from start to end: when the format is not given it is told from the first
 * data line as the reading reaches it, so a pipe reads as well as a file. Entry points: {@link #read(Path)} detects
 * a block format ({@link TraceFormat#ofFirstLine}); {@link #read(Path, TraceFormat)} takes it as given (the
 * override of a command line); {@link #read(BufferedReader, String, Optional, RequestLimit)} reads any block trace
 * text, and {@link #read(InputStream, String, Optional, TraceOptions, RequestLimit)} the decompressed bytes of a
 * trace in any {@link RequestFormat} (detected by {@link RequestFormat#ofFirstLine}), each up to a limit on the
 * requests the caller can hold. A malformed line, or a trace that expands past the limit, raises
 * {@link TraceFormatException} with the message {@code source:line: problem} (a binary record:
 * {@code source: record R at byte offset B: problem}), where the source is the path as given; an I/O failure
 * raises {@link UncheckedIOException} naming the file.
 */
public final class TraceReader {

    private TraceReader() {
    }

    /**
     * The most requests a read may expand to, and why, for the message when a trace exceeds it.
     *
     * @param requests the most requests, in [0, {@link #ARRAY}'s]
     * @param reason what sets the limit, as a phrase ({@code this JVM's heap of 2048 MiB})
     */
    public record RequestLimit(int requests, String reason) {

        /** The largest Java array that is safe to allocate. */
        public static final RequestLimit ARRAY = new RequestLimit(Integer.MAX_VALUE - 8, "the largest Java array");

        /** Checks the range. */
        public RequestLimit {
            if (requests < 0 || requests > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("requests must be in [0, " + (Integer.MAX_VALUE - 8) + "], was "
                        + requests);
            }
        }
    }

    /**
     * Reads a trace, detecting its format from its content.
     *
     * @param path a trace file
     * @return the page requests, in order
     */
    public static long[] read(Path path) {
        return read(path, Optional.empty());
    }

    /**
     * Reads a trace in a given format.
     *
     * @param path a trace file
     * @param format its format
     * @return the page requests, in order
     */
    public static long[] read(Path path, TraceFormat format) {
        return read(path, Optional.of(format));
    }

    private static long[] read(Path path, Optional<TraceFormat> format) {
        try (BufferedReader in = TraceFile.open(path)) {
            return read(in, path.toString(), format, RequestLimit.ARRAY);
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("trace file", path.toString(), e), e);
        }
    }

    /**
     * Reads a trace from text, once, to its end.
     *
     * @param in the text ({@link TraceFile#open(java.io.InputStream, String)})
     * @param source the name used in error messages
     * @param format the format, or empty to tell it from the first data line
     * @param limit the most requests the trace may expand to
     * @return the page requests, in order
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the source and line of a bad line, or of the line past the limit
     */
    public static long[] read(BufferedReader in, String source, Optional<TraceFormat> format, RequestLimit limit)
            throws IOException {
        PageBuffer out = new PageBuffer(limit);
        readLines(in, source, format.map(RequestFormat::of),
                (line, n) -> RequestFormat.of(TraceFormat.ofFirstLine(line, source, n)), TraceOptions.DEFAULTS, out);
        return out.toArray();
    }

    /**
     * Reads a trace in any {@link RequestFormat} from its decompressed bytes ({@link TraceFile#decompress}),
     * once, to their end: oracleGeneral as records, the others as text ({@link TraceFile#text}).
     *
     * @param content the decompressed bytes; the caller closes the stream
     * @param source the name used in error messages
     * @param format the format, or empty to tell a text format from the first data line
     *     ({@link RequestFormat#ofFirstLine})
     * @param options the page size and the csv layout (required for csv)
     * @param limit the most requests the trace may expand to
     * @return the page requests, in order
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the source and line (or record) of a bad line, or of the one past the
     *     limit
     */
    public static long[] read(InputStream content, String source, Optional<RequestFormat> format,
            TraceOptions options, RequestLimit limit) throws IOException {
        PageBuffer out = new PageBuffer(limit);
        if (format.isPresent() && format.get().binary()) {
            OracleGeneralTrace.read(content, source, out);
        } else {
            readLines(TraceFile.text(content, source), source, format,
                    (line, n) -> RequestFormat.ofFirstLine(line, source, n), options, out);
        }
        return out.toArray();
    }

    /** Tells the format of a trace from its first data line. */
    @FunctionalInterface
    private interface Detector {
        RequestFormat formatOf(String line, long lineNumber);
    }

    /**
     * The line loop of every text format: strips each line, skips empty ones, and {@code *} lines while the format
     * is not yet known or skips them ({@link RequestFormat#skipsBreakpoints}); the format, when not given, is
     * detected at the first data line.
     */
    private static void readLines(BufferedReader in, String source, Optional<RequestFormat> given, Detector detector,
            TraceOptions options, PageBuffer out) throws IOException {
        RequestFormat format = given.orElse(null);
        LineParser parser = format == null ? null : format.parser(options, source, out);
        long lineNumber = 0;
        for (String raw = in.readLine(); raw != null; raw = in.readLine()) {
            lineNumber++;
            String line = raw.strip();
            if (line.isEmpty() || (format == null || format.skipsBreakpoints())
                    && line.equals(TraceFormat.BREAKPOINT)) {
                continue;
            }
            if (parser == null) {
                format = detector.formatOf(line, lineNumber);
                parser = format.parser(options, source, out);
            }
            parser.parse(line, lineNumber);
        }
    }

    /**
     * Tells the format of a trace from its first data line ({@link TraceFormat#ofFirstLine}), reading
     * no further. A trace without data lines reads as empty in either format and is reported as
     * {@link TraceFormat#LIRS}.
     *
     * @param path a trace file
     * @return its format
     */
    public static TraceFormat detect(Path path) {
        try (BufferedReader in = TraceFile.open(path)) {
            long lineNumber = 0;
            for (String raw = in.readLine(); raw != null; raw = in.readLine()) {
                lineNumber++;
                String line = raw.strip();
                if (!line.isEmpty() && !line.equals(TraceFormat.BREAKPOINT)) {
                    return TraceFormat.ofFirstLine(line, path.toString(), lineNumber);
                }
            }
            return TraceFormat.LIRS;
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("trace file", path.toString(), e), e);
        }
    }
}
