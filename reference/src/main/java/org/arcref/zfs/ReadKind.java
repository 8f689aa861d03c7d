package org.arcref.zfs;

/** What kind of read a caller issues, as the {@code arc_flags} of {@code arc_read} say it. */
public enum ReadKind {
    /** A demand read: the caller gets a buffer ({@code done != NULL}), which takes a reference. */
    DEMAND,
    /** {@code ARC_FLAG_PREFETCH}: no buffer, no reference; the header is marked prefetched. */
    PREFETCH,
    /**
     * {@code ARC_FLAG_PREFETCH | ARC_FLAG_PRESCIENT_PREFETCH}: a prefetch that is known to be needed,
     * protected from eviction for {@code arc_min_prescient_prefetch_ms} rather than
     * {@code arc_min_prefetch_ms}.
     */
    PRESCIENT_PREFETCH;

    /** @return {@code true} for both kinds of prefetch */
    public boolean isPrefetch() {
        return this != DEMAND;
    }
}
