package org.arcref.trace;

/**
 * Turns the data lines of one text trace into page requests, line by line, for {@link TraceReader}; one instance
 * reads one trace (it may number keys as they first appear).
 */
@FunctionalInterface
interface LineParser {

    /**
     * Appends the requests of one line.
     *
     * @param line a stripped, non-empty line
     * @param lineNumber its 1-based number, for error messages
     * @throws TraceFormatException at the source and line if the line is malformed
     */
    void parse(String line, long lineNumber);
}
