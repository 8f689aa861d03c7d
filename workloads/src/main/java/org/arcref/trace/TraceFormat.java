package org.arcref.trace;

import java.util.Locale;

/**
 * The text formats of block traces that {@link TraceReader} understands. Both are line-based, UTF-8
 * (ASCII in practice), optionally gzip-compressed (told by content, see {@link TraceFile}); lines end
 * in LF or CRLF, the last line may lack its line end, surrounding white space is ignored and empty
 * lines are skipped.
 *
 * <ul>
 *   <li>{@link #LIRS}: the traces of the LIRS paper (Jiang and Zhang, SIGMETRICS 2002). One request per
 *       line: a block number, a decimal {@code long} (signed). A line holding only {@code *} is a
 *       breakpoint marker of the authors' tool and is skipped. Anything else on a line is an error.
 *   <li>{@link #LIS}: the traces of the ARC paper (Megiddo and Modha, FAST'03), the {@code .lis} format.
 *       Each line has exactly four decimal integer fields separated by white space:
 *       {@code starting_block number_of_blocks ignore request_number}. It stands for the
 *       {@code number_of_blocks} page requests {@code starting_block, starting_block+1, …,
 *       starting_block+number_of_blocks-1}. The third field is not part of the page identity and the
 *       fourth is only a sequence number; both must be integers but are otherwise ignored. Rules:
 *       {@code starting_block >= 0}, {@code number_of_blocks >= 1}, and the last block must fit in a
 *       {@code long}. A line with fewer or more fields is rejected rather than guessed at, since the
 *       format defines exactly four. Lines holding only {@code *} are skipped here too.
 * </ul>
 *
 * <p>Every rejected line raises a {@link TraceFormatException} naming the source, the line number and
 * the problem. {@link TraceReader#detect} tells the formats apart by content: see {@link #ofFirstLine}.
 */
public enum TraceFormat {

    /** One block number per line. */
    LIRS {
        @Override
        void parse(String line, String source, long lineNumber, PageBuffer out) {
            out.addRange(integer(line, "a block number", source, lineNumber), 1, source, lineNumber);
        }
    },

    /** {@code starting_block number_of_blocks ignore request_number} per line. */
    LIS {
        @Override
        void parse(String line, String source, long lineNumber, PageBuffer out) {
            String[] fields = fields(line);
            if (fields.length != LIS_FIELDS) {
                throw new TraceFormatException(source, lineNumber, "expected " + LIS_FIELDS
                        + " fields (starting_block number_of_blocks ignore request_number), got "
                        + fields.length + " in " + Excerpt.of(line));
            }
            long start = integer(fields[0], "starting_block as an integer", source, lineNumber);
            long count = integer(fields[1], "number_of_blocks as an integer", source, lineNumber);
            integer(fields[2], "the third field (ignore) as an integer", source, lineNumber);
            integer(fields[3], "request_number as an integer", source, lineNumber);
            if (start < 0) {
                throw new TraceFormatException(source, lineNumber, "starting_block must be >= 0, was " + start);
            }
            if (count < 1) {
                throw new TraceFormatException(source, lineNumber, "number_of_blocks must be >= 1, was " + count);
            }
            if (start > Long.MAX_VALUE - (count - 1)) {
                throw new TraceFormatException(source, lineNumber, "starting_block + number_of_blocks - 1 must be <= "
                        + Long.MAX_VALUE + ", was " + start + " + " + count + " - 1");
            }
            out.addRange(start, count, source, lineNumber);
        }
    };

    /** The line that marks a breakpoint in LIRS traces; skipped in both formats. */
    static final String BREAKPOINT = "*";

    private static final int LIS_FIELDS = 4;
    private static final int LIS_MIN_FIELDS_TO_DETECT = 3;

    /**
     * Appends the requests of one line.
     *
     * @param line a stripped, non-empty line that is not {@link #BREAKPOINT}
     */
    abstract void parse(String line, String source, long lineNumber, PageBuffer out);

    /**
     * The format override of a command line: {@code lirs} or {@code lis}, in any case.
     *
     * @param name the name of a format
     * @return that format
     * @throws IllegalArgumentException if {@code name} names no format
     */
    public static TraceFormat named(String name) {
        for (TraceFormat format : values()) {
            if (format.name().equalsIgnoreCase(name)) {
                return format;
            }
        }
        throw new IllegalArgumentException("format must be one of lirs, lis, was " + Excerpt.of(name));
    }

    /**
     * Tells the format from the first data line of a trace (the first line that is neither empty nor
     * {@link #BREAKPOINT}): one field is {@link #LIRS}; three or more integer fields are {@link #LIS}
     * (a line with the wrong number of fields is then reported by the {@code .lis} parser).
     *
     * @param line the stripped first data line
     * @param source the file name, for the error message
     * @param lineNumber the 1-based number of the line, for the error message
     * @return the format
     * @throws TraceFormatException at {@code source:lineNumber} if the line fits neither format
     */
    public static TraceFormat ofFirstLine(String line, String source, long lineNumber) {
        String[] fields = fields(line);
        if (fields.length == 1) {
            return LIRS;
        }
        if (fields.length >= LIS_MIN_FIELDS_TO_DETECT && allIntegers(fields)) {
            return LIS;
        }
        throw new TraceFormatException(source, lineNumber, "cannot tell the trace format: expected one block "
                + "number (LIRS) or at least " + LIS_MIN_FIELDS_TO_DETECT + " integer fields (.lis), got "
                + Excerpt.of(line));
    }

    /** @return the lower-case name used on command lines and in output */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static String[] fields(String line) {
        return line.split("\\s+");
    }

    private static boolean allIntegers(String[] fields) {
        for (String field : fields) {
            try {
                Decimal.parseLong(field);
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return true;
    }

    private static long integer(String text, String expected, String source, long lineNumber) {
        try {
            return Decimal.parseLong(text);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(source, lineNumber, "expected " + expected + ", got " + Excerpt.of(text));
        }
    }
}
