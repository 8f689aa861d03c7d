package org.arcref.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.Map;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.ZfsRelease;

/**
 * A conformance output read one line at a time: the header is read and checked (format and version) when the
 * reader is made, then {@link #next()} parses one operation line per call. Only the line being parsed is held,
 * so reading costs memory proportional to the longest line, not to the file. Errors name the source and the
 * 1-based line. Not thread-safe.
 */
public final class ConformanceReader {

    /** Where the text comes from: one line per call, without its terminator, {@code null} at the end. */
    @FunctionalInterface
    public interface LineSource {
        /**
         * @return the next line, or {@code null} at the end
         * @throws IOException if reading fails
         */
        String readLine() throws IOException;
    }

    private final LineSource in;
    private final String source;
    private final Map<String, Object> header;
    private long line = 1;

    /**
     * Reads and checks the header line.
     *
     * @param in the text, such as {@code bufferedReader::readLine}
     * @param source the name used in error messages
     * @throws TraceFormatException at line 1 if the source is empty or its header is not this format and version
     * @throws UncheckedIOException naming the source if reading fails
     */
    public ConformanceReader(LineSource in, String source) {
        this.in = in;
        this.source = source;
        String text = read();
        if (text == null) {
            throw new TraceFormatException(source, 1, "the file is empty; expected a header line with \"format\":\""
                    + ConformanceFormat.NAME + "\"");
        }
        this.header = parseLine(text, source, 1);
        checkHeader(header, source);
    }

    /** @return the name used in error messages */
    public String source() {
        return source;
    }

    /** @return the header line */
    public Map<String, Object> header() {
        return header;
    }

    /** @return the 1-based number of the last line read (1 after the header) */
    public long line() {
        return line;
    }

    /**
     * @return the next operation line, or {@code null} at the end of the text
     * @throws TraceFormatException naming the source and line if the line is not a JSON object
     * @throws UncheckedIOException naming the source if reading fails
     */
    public Map<String, Object> next() {
        String text = read();
        return text == null ? null : parseLine(text, source, line);
    }

    /**
     * Reads the rest of the text without parsing it.
     *
     * @return the number of lines that were left
     * @throws UncheckedIOException naming the source if reading fails
     */
    public long skipToEnd() {
        long skipped = 0;
        while (read() != null) {
            skipped++;
        }
        return skipped;
    }

    private String read() {
        try {
            String text = in.readLine();
            if (text != null && header != null) {
                line++;
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("conformance file", source, e), e);
        }
    }

    /**
     * @param text one line of a conformance output
     * @param source the name used in error messages
     * @param line its 1-based number, for messages
     * @return the line's object
     * @throws TraceFormatException naming the source and line if it is not a JSON object
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parseLine(String text, String source, long line) {
        Object v;
        try {
            v = JsonParser.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(source, line, "not JSON: " + e.getMessage());
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new TraceFormatException(source, line, "each line must be a JSON object, was "
                    + ConformanceFormat.describe(v));
        }
        return (Map<String, Object>) m;
    }

    /**
     * @param header a parsed first line
     * @param source the name used in error messages
     * @throws TraceFormatException at line 1 if its {@code format} is not this format's, its {@code zfs} names no
     *     release, its {@code version} is not that release's engine's, or its {@code revision} is not a positive
     *     integer
     */
    static void checkHeader(Map<String, Object> header, String source) {
        if (!ConformanceFormat.NAME.equals(header.get("format"))) {
            throw new TraceFormatException(source, 1, "the header's \"format\" must be \"" + ConformanceFormat.NAME
                    + "\", was " + ConformanceFormat.describe(header.get("format")));
        }
        ZfsRelease release;
        try {
            release = ConformanceFormat.release(header);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(source, 1, e.getMessage());
        }
        int version = ConformanceFormat.version(release.engine());
        if (!BigInteger.valueOf(version).equals(header.get("version"))) {
            throw new TraceFormatException(source, 1, "the header's \"version\" must be " + version
                    + " (the version this tool reads for zfs " + release.version() + "), was "
                    + ConformanceFormat.describe(header.get("version")));
        }
        try {
            ConformanceFormat.revision(header);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(source, 1, e.getMessage());
        }
    }
}
