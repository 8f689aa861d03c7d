package org.arcref.trace;

/**
 * A block trace of the MSR Cambridge collection (Narayanan et al., FAST'08; published by SNIA): one I/O per line,
 * seven comma-separated fields, {@code Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime}, offsets and
 * sizes in bytes.
 *
 * <p>Contract: with pages of {@code P} bytes ({@link TraceOptions#pageSize()}), a line stands for the page requests
 * {@code floor(Offset/P), …, floor((Offset+Size-1)/P)} of its disk, in that order; reads and writes alike, since
 * both bring the block into the cache. Each (Hostname, DiskNumber) pair is its own identity space, so two disks'
 * pages never collide: the pairs are numbered densely by first appearance, {@code d}, and page {@code p} of pair
 * {@code d} is the identity {@code d·2^43 + p}. Hence a trace may have at most 2^20 disks and a page number must
 * be below 2^43 (with 512-byte pages, offsets below 4 PiB). Timestamp and ResponseTime are validated and ignored.
 *
 * <p>Rules, each failure naming the source, the line, the field and the value: exactly seven fields; Timestamp,
 * DiskNumber, Offset, Size and ResponseTime non-negative ASCII decimals ({@link Decimal}); Size at least 1;
 * Hostname non-empty; Type {@code Read} or {@code Write}, as the traces write them.
 */
final class MsrTrace implements LineParser {

    /** The fields of a line. */
    static final int FIELDS = 7;

    /** The bits of a page number within its disk's identity space. */
    static final int PAGE_BITS = 43;

    /** The most disks a trace may have. */
    static final long MAX_DISKS = 1L << (63 - PAGE_BITS);

    private final long pageSize;
    private final String source;
    private final PageBuffer out;
    private final KeyNumbering disks = new KeyNumbering();

    MsrTrace(long pageSize, String source, PageBuffer out) {
        this.pageSize = pageSize;
        this.source = source;
        this.out = out;
    }

    /**
     * @param fields the comma-separated fields of a line
     * @return whether they look like a line of this format: seven, {@code Read} or {@code Write} fourth
     */
    static boolean looksLike(String[] fields) {
        return fields.length == FIELDS && (fields[3].equals("Read") || fields[3].equals("Write"));
    }

    @Override
    public void parse(String line, long lineNumber) {
        String[] f = Fields.split(line, ',');
        if (f.length != FIELDS) {
            throw new TraceFormatException(source, lineNumber, "expected " + FIELDS + " comma-separated fields "
                    + "(Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), got " + f.length + " in "
                    + Excerpt.of(line));
        }
        Fields.nonNegative(f[0], "Timestamp", source, lineNumber);
        String host = Fields.nonEmpty(f[1], "Hostname", source, lineNumber);
        long disk = Fields.nonNegative(f[2], "DiskNumber", source, lineNumber);
        if (!f[3].equals("Read") && !f[3].equals("Write")) {
            throw new TraceFormatException(source, lineNumber, "Type must be Read or Write, was " + Excerpt.of(f[3]));
        }
        long offset = Fields.nonNegative(f[4], "Offset", source, lineNumber);
        long size = Fields.nonNegative(f[5], "Size", source, lineNumber);
        Fields.nonNegative(f[6], "ResponseTime", source, lineNumber);
        if (size < 1) {
            throw new TraceFormatException(source, lineNumber, "Size must be >= 1 byte, was " + size);
        }
        if (offset > Long.MAX_VALUE - (size - 1)) {
            throw new TraceFormatException(source, lineNumber, "Offset + Size - 1 must be <= " + Long.MAX_VALUE
                    + ", was " + offset + " + " + size + " - 1");
        }
        long first = offset / pageSize;
        long last = (offset + size - 1) / pageSize;
        if (last >= 1L << PAGE_BITS) {
            throw new TraceFormatException(source, lineNumber, "the last page, (Offset + Size - 1) / " + pageSize
                    + ", must be < 2^" + PAGE_BITS + ", was " + last);
        }
        long d = disks.of(host + '\u0000' + disk);
        if (d >= MAX_DISKS) {
            throw new TraceFormatException(source, lineNumber, "a trace may have at most " + MAX_DISKS + " disks "
                    + "(Hostname, DiskNumber); this line adds one more: " + Excerpt.of(host + "," + disk));
        }
        out.addRange((d << PAGE_BITS) + first, last - first + 1, source, lineNumber);
    }
}
