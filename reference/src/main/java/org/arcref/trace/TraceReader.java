package org.arcref.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Reads a whole block trace into memory as the sequence of page requests it stands for, one
 * {@code long} per request, in trace order. The formats are described in {@link TraceFormat}; files
 * may be plain or gzip-compressed, told apart by content ({@link TraceFile}).
 *
 * <p>Entry points: {@link #read(Path)} detects the format from the content ({@link #detect});
 * {@link #read(Path, TraceFormat)} takes it as given (the override of a command line). A malformed line
 * raises {@link TraceFormatException} with the message {@code source:line: problem}, where the source
 * is the path as given; an I/O failure raises {@link UncheckedIOException} naming the file.
 */
public final class TraceReader {

    private TraceReader() {
    }

    /**
     * Reads a trace, detecting its format from its content.
     *
     * @param path a trace file
     * @return the page requests, in order
     */
    public static long[] read(Path path) {
        return read(path, detect(path));
    }

    /**
     * Reads a trace in a given format.
     *
     * @param path a trace file
     * @param format its format
     * @return the page requests, in order
     */
    public static long[] read(Path path, TraceFormat format) {
        PageBuffer out = new PageBuffer();
        forEachDataLine(path, (line, lineNumber) -> {
            format.parse(line, path.toString(), lineNumber, out);
            return true;
        });
        return out.toArray();
    }

    /**
     * Tells the format of a trace from its first data line ({@link TraceFormat#ofFirstLine}). A trace
     * without data lines reads as empty in either format and is reported as {@link TraceFormat#LIRS}.
     *
     * @param path a trace file
     * @return its format
     */
    public static TraceFormat detect(Path path) {
        TraceFormat[] detected = {TraceFormat.LIRS};
        forEachDataLine(path, (line, lineNumber) -> {
            detected[0] = TraceFormat.ofFirstLine(line, path.toString(), lineNumber);
            return false;
        });
        return detected[0];
    }

    /** Receives the data lines of a trace; returns whether to go on. */
    @FunctionalInterface
    private interface DataLineVisitor {
        boolean visit(String line, long lineNumber);
    }

    /**
     * Passes every data line (stripped, neither empty nor {@link TraceFormat#BREAKPOINT}) with its
     * 1-based line number to {@code visitor} until it returns false or the file ends.
     */
    private static void forEachDataLine(Path path, DataLineVisitor visitor) {
        try (BufferedReader in = TraceFile.open(path)) {
            long lineNumber = 0;
            for (String raw = in.readLine(); raw != null; raw = in.readLine()) {
                lineNumber++;
                String line = raw.strip();
                if (!line.isEmpty() && !line.equals(TraceFormat.BREAKPOINT) && !visitor.visit(line, lineNumber)) {
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace file " + path + ": " + e.getMessage(), e);
        }
    }
}
