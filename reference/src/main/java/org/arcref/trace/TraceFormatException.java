package org.arcref.trace;

/**
 * A trace line that cannot be read. The message names the source (usually the file), the 1-based
 * line number and what was wrong, as {@code source:line: problem}, so that a user can open the file
 * at that line.
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
        super(source + ":" + line + ": " + problem);
        this.source = source;
        this.line = line;
        this.problem = problem;
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
