package org.arcref.trace;

import java.util.Arrays;

/** A growable array of page requests, filled by a trace reader one line at a time. */
final class PageBuffer {

    /** The most requests one trace can expand to: the largest Java array that is safe to allocate. */
    static final int MAX_REQUESTS = Integer.MAX_VALUE - 8;

    private long[] pages = new long[1 << 12];
    private int size;

    /**
     * Appends {@code first, first+1, …, first+count-1}.
     *
     * @throws TraceFormatException at {@code source:line} if the trace would exceed {@link #MAX_REQUESTS}
     */
    void addRange(long first, long count, String source, long line) {
        if (count > MAX_REQUESTS - size) {
            throw new TraceFormatException(source, line,
                    "the trace expands to more than " + MAX_REQUESTS + " requests");
        }
        int end = size + (int) count;
        if (end > pages.length) {
            pages = Arrays.copyOf(pages, (int) Math.min(MAX_REQUESTS, Math.max(end, 2L * pages.length)));
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
