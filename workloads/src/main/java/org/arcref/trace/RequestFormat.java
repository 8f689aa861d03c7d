package org.arcref.trace;

import java.util.Locale;

/**
 * Every trace format that {@link TraceReader} turns into page requests: the block traces of {@link TraceFormat}
 * (LIRS, ARC {@code .lis}), libCacheSim's {@link #CSV} and {@link #ORACLE_GENERAL}, Twitter's cache traces
 * ({@link #TWITTER}) and the MSR Cambridge block traces ({@link #MSR}). Each format's class describes it and states
 * what its requests are; all but {@link #ORACLE_GENERAL} are text, read line by line, empty lines skipped.
 *
 * <p>{@link #ofFirstLine} tells the text formats apart by content where the first data line is unambiguous; csv
 * (any columns) and oracleGeneral (binary, no header) must be named.
 */
public enum RequestFormat {

    /** One block number per line ({@link TraceFormat#LIRS}). */
    LIRS(TraceFormat.LIRS),

    /** {@code starting_block number_of_blocks ignore request_number} per line ({@link TraceFormat#LIS}). */
    LIS(TraceFormat.LIS),

    /** Delimited text with the key in a given column ({@link CsvTrace}, {@link CsvLayout}). */
    CSV(null),

    /** {@code timestamp,key,key size,value size,client id,operation,TTL} ({@link TwitterTrace}). */
    TWITTER(null),

    /** {@code Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime} ({@link MsrTrace}). */
    MSR(null),

    /** Packed 24-byte little-endian records ({@link OracleGeneralTrace}). */
    ORACLE_GENERAL(null);

    private final TraceFormat blockFormat;

    RequestFormat(TraceFormat blockFormat) {
        this.blockFormat = blockFormat;
    }

    /**
     * The format a command line names: {@code lirs}, {@code lis}, {@code csv}, {@code twitter}, {@code msr} or
     * {@code oraclegeneral}, in any case.
     *
     * @param name the name of a format
     * @return that format
     * @throws IllegalArgumentException naming the formats and the value if {@code name} names none
     */
    public static RequestFormat named(String name) {
        for (RequestFormat format : values()) {
            if (format.toString().equalsIgnoreCase(name)) {
                return format;
            }
        }
        throw new IllegalArgumentException("format must be one of " + names() + ", was " + Excerpt.of(name));
    }

    /**
     * @param block a block trace format
     * @return the same format among these
     */
    public static RequestFormat of(TraceFormat block) {
        return block == TraceFormat.LIS ? LIS : LIRS;
    }

    /** @return the names of the formats, comma-separated, as {@link #named} takes them */
    public static String names() {
        StringBuilder sb = new StringBuilder();
        for (RequestFormat format : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(format);
        }
        return sb.toString();
    }

    /**
     * Tells a text format from the first data line of a trace: seven comma-separated fields with {@code Read} or
     * {@code Write} fourth are {@link #MSR}; seven with an operation name ({@code get}, {@code set}, …) sixth are
     * {@link #TWITTER}; otherwise the block formats as {@link TraceFormat#ofFirstLine} tells them (one field is
     * {@link #LIRS}, three or more integer fields {@link #LIS}).
     *
     * @param line the stripped first data line
     * @param source the file name, for the error message
     * @param lineNumber the 1-based number of the line, for the error message
     * @return the format
     * @throws TraceFormatException at {@code source:lineNumber} if the line fits none of them
     */
    public static RequestFormat ofFirstLine(String line, String source, long lineNumber) {
        String[] fields = Fields.split(line, ',');
        if (MsrTrace.looksLike(fields)) {
            return MSR;
        }
        if (TwitterTrace.looksLike(fields)) {
            return TWITTER;
        }
        try {
            return of(TraceFormat.ofFirstLine(line, source, lineNumber));
        } catch (TraceFormatException e) {
            throw new TraceFormatException(source, lineNumber, "cannot tell the trace format: expected one block "
                    + "number (LIRS), at least 3 integer fields (.lis), or 7 comma-separated fields with Read/Write "
                    + "4th (MSR) or an operation 6th (Twitter); name csv and oracleGeneral, got " + Excerpt.of(line)
                    + (isOperation(line) ? "; this is an op trace (the ZFS spec's own format), which arc conform "
                            + "runs" : ""));
        }
    }

    /** @return whether a line reads as an operation of an op trace ({@link OpTraceReader}) */
    private static boolean isOperation(String line) {
        try {
            OpTraceReader.parseLine(line);
            return true;
        } catch (TraceFormatException e) {
            return false;
        }
    }

    /** @return whether the format is binary, read by records rather than lines */
    boolean binary() {
        return this == ORACLE_GENERAL;
    }

    /** @return whether a line holding only {@code *} (a LIRS breakpoint) is skipped */
    boolean skipsBreakpoints() {
        return blockFormat != null;
    }

    /**
     * @param options the page size and csv layout
     * @param source the name for error messages
     * @param out receives the requests
     * @return a parser of one trace's lines in this text format
     * @throws IllegalArgumentException if the format is csv and {@code options} has no layout
     */
    LineParser parser(TraceOptions options, String source, PageBuffer out) {
        return switch (this) {
            case LIRS, LIS -> (line, n) -> blockFormat.parse(line, source, n, out);
            case CSV -> new CsvTrace(options.csv().orElseThrow(() -> new IllegalArgumentException(
                    "a csv trace needs its columns: the object id column at least")), source, out);
            case TWITTER -> new TwitterTrace(source, out);
            case MSR -> new MsrTrace(options.pageSize(), source, out);
            case ORACLE_GENERAL -> throw new IllegalStateException("oracleGeneral is binary; it has no lines");
        };
    }

    /** @return the name used on command lines and in output: {@code oracleGeneral}, or the lower-case name */
    @Override
    public String toString() {
        return this == ORACLE_GENERAL ? "oracleGeneral" : name().toLowerCase(Locale.ROOT);
    }
}
