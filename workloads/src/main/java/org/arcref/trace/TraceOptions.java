package org.arcref.trace;

import java.util.Optional;

/**
 * What reading a trace needs besides its bytes and format: the page size that turns byte ranges into pages
 * ({@link MsrTrace}), and the columns of a csv trace ({@link CsvTrace}).
 *
 * @param pageSize bytes per page, in [1, 2^30]
 * @param csv the layout of a csv trace; required to read one
 */
public record TraceOptions(long pageSize, Optional<CsvLayout> csv) {

    /** The page size of the ZFS spec in page mode. */
    public static final long DEFAULT_PAGE_SIZE = 4096;

    /** 4096-byte pages, no csv layout. */
    public static final TraceOptions DEFAULTS = new TraceOptions(DEFAULT_PAGE_SIZE, Optional.empty());

    /**
     * Checks the page size.
     *
     * @throws IllegalArgumentException naming the rule and the value
     */
    public TraceOptions {
        if (pageSize < 1 || pageSize > 1L << 30) {
            throw new IllegalArgumentException("page-size must be in [1, " + (1L << 30) + "] bytes, was " + pageSize);
        }
    }
}
