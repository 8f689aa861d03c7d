package org.arcref.trace;

import java.util.Arrays;

/**
 * A growable array of page requests, filled by a trace reader one line at a time, up to a
 * {@link TraceReader.RequestLimit}; a range that would pass the limit is rejected before anything is allocated.
 */
final class PageBuffer {

    private final TraceReader.RequestLimit limit;
    private long[] pages = new long[1 << 12];
    private int size;

    PageBuffer(TraceReader.RequestLimit limit) {
        this.limit = limit;
    }

    /**
     * Appends {@code first, first+1, …, first+count-1}.
     *
     * @throws TraceFormatException at {@code source:line} if the trace would exceed the limit
     */
    void addRange(long first, long count, String source, long line) {
        if (count > limit.requests() - size) {
            throw new TraceFormatException(source, line, "the trace expands to more than " + limit.requests()
                    + " requests, the most " + limit.reason() + " allows");
        }
        int end = size + (int) count;
        if (end > pages.length) {
            pages = Arrays.copyOf(pages, (int) Math.min(limit.requests(), Math.max(end, 2L * pages.length)));
        }
        for (int i = size; i < end; i++) {
            pages[i] = first + (i - size);
        }
        size = end;
    }

    long[] toArray() {
        return Arrays.copyOf(pages, size);
    }
}
