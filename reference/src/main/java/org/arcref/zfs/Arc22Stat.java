package org.arcref.zfs;

/**
 * The statistics the zfs-2.2.0 engine keeps, in conformance output order: {@code arcstats} kstats under their ZFS
 * names, split by buffer type where zfs-2.2.0 splits them, and four counts of the probes
 * ({@code evictions}, {@code evicted_bytes}, {@code evict_waits}, {@code evictor_runs}) as {@link ArcStat} has them.
 */
public enum Arc22Stat {
    HITS("hits"),
    MISSES("misses"),
    DEMAND_DATA_HITS("demand_data_hits"),
    DEMAND_METADATA_HITS("demand_metadata_hits"),
    PREFETCH_DATA_HITS("prefetch_data_hits"),
    PREFETCH_METADATA_HITS("prefetch_metadata_hits"),
    DEMAND_DATA_MISSES("demand_data_misses"),
    DEMAND_METADATA_MISSES("demand_metadata_misses"),
    PREFETCH_DATA_MISSES("prefetch_data_misses"),
    PREFETCH_METADATA_MISSES("prefetch_metadata_misses"),
    MRU_HITS("mru_hits"),
    MFU_HITS("mfu_hits"),
    MRU_GHOST_HITS("mru_ghost_hits"),
    MFU_GHOST_HITS("mfu_ghost_hits"),
    DELETED("deleted"),
    EVICT_SKIP("evict_skip"),
    EVICT_NOT_ENOUGH("evict_not_enough"),
    MUTEX_MISS("mutex_miss"),
    DEMAND_HIT_PREDICTIVE_PREFETCH("demand_hit_predictive_prefetch"),
    DEMAND_HIT_PRESCIENT_PREFETCH("demand_hit_prescient_prefetch"),
    OVERHEAD_SIZE("overhead_size"),
    COMPRESSED_SIZE("compressed_size"),
    UNCOMPRESSED_SIZE("uncompressed_size"),
    /** Headers evicted from MRU or MFU to a ghost state (the {@code arc__evict} probe). */
    EVICTIONS("evictions"),
    /** Their bytes. */
    EVICTED_BYTES("evicted_bytes"),
    /** Allocations that waited for eviction (the {@code arc__wait__for__eviction} probe). */
    EVICT_WAITS("evict_waits"),
    /** Calls of {@code arc_evict_cb}. */
    EVICTOR_RUNS("evictor_runs");

    private final String kstatName;

    Arc22Stat(String kstatName) {
        this.kstatName = kstatName;
    }

    /** @return the name in conformance output */
    public String kstatName() {
        return kstatName;
    }

    /**
     * {@code ARCSTAT_CONDSTAT(!prefetch, demand, prefetch, is_data, data, metadata, hits|misses)}.
     *
     * @param prefetch whether the request was a prefetch ({@code ARC_FLAG_PREFETCH} in {@code arc_flags})
     * @param type the header's type
     * @param hit hits or misses
     * @return the statistic
     */
    public static Arc22Stat of(boolean prefetch, BufType type, boolean hit) {
        boolean data = type == BufType.DATA;
        if (hit) {
            return prefetch ? (data ? PREFETCH_DATA_HITS : PREFETCH_METADATA_HITS)
                    : (data ? DEMAND_DATA_HITS : DEMAND_METADATA_HITS);
        }
        return prefetch ? (data ? PREFETCH_DATA_MISSES : PREFETCH_METADATA_MISSES)
                : (data ? DEMAND_DATA_MISSES : DEMAND_METADATA_MISSES);
    }
}
