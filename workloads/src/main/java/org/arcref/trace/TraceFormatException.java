package org.arcref.trace;

/**
 * A trace line that cannot be read. The message names the source (usually the file), the 1-based
 * line number and what was wrong, as {@code source:line: problem}, so that a user can open the file
 * at that line. In a binary trace the line is the 1-based record, and the message says
 * {@code source: record R at byte offset B: problem} ({@link #inRecord}).
 */
public final class TraceFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final long line;
    private final String problem;

    /**
     * @param source the file name or other description of where the line came from
     * @param line the 1-based line number
     * @param problem what was wrong with the line, as a sentence fragment
     */
    public TraceFormatException(String source, long line, String problem) {
        this(source + ":" + line + ": " + problem, source, line, problem);
    }

    private TraceFormatException(String message, String source, long line, String problem) {
        super(message);
        this.source = source;
        this.line = line;
        this.problem = problem;
    }

    /**
     * A record of a binary trace that cannot be read.
     *
     * @param source the file name or other description of where the record came from
     * @param record the 1-based record number, the exception's {@link #line()}
     * @param offset the byte offset of the record in the content
     * @param problem what was wrong with the record
     * @return the exception, its message {@code source: record R at byte offset B: problem}
     */
    public static TraceFormatException inRecord(String source, long record, long offset, String problem) {
        return new TraceFormatException(source + ": record " + record + " at byte offset " + offset + ": " + problem,
                source, record, problem);
    }

    /** @return the file name or other description of where the line came from */
    public String source() {
        return source;
    }

    /** @return the 1-based line number */
    public long line() {
        return line;
    }

    /** @return what was wrong with the line */
    public String problem() {
        return problem;
    }
}
