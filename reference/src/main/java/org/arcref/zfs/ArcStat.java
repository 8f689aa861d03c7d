package org.arcref.zfs;

import java.util.List;

/**
 * The statistics the spec counts. Most are ZFS arcstats ({@code /proc/spl/kstat/zfs/arcstats})
 * under their kstat names; the few that are not say so.
 */
public enum ArcStat {
    /** {@code hits}: reads that found data in MRU or MFU. */
    HITS("hits"),
    /** {@code misses}: reads that found no data (including ghost hits). */
    MISSES("misses"),
    /** {@code demand_data_hits}: hits by demand reads (the header not prefetched after the hit). */
    DEMAND_DATA_HITS("demand_data_hits"),
    /** {@code prefetch_data_hits}: hits counted as prefetch ({@code HDR_PREFETCH} after the hit). */
    PREFETCH_DATA_HITS("prefetch_data_hits"),
    /** {@code demand_data_misses}. */
    DEMAND_DATA_MISSES("demand_data_misses"),
    /** {@code prefetch_data_misses}. */
    PREFETCH_DATA_MISSES("prefetch_data_misses"),
    /** {@code mru_hits}: counted in {@code arc_access} for MRU headers. */
    MRU_HITS("mru_hits"),
    /** {@code mfu_hits}. */
    MFU_HITS("mfu_hits"),
    /** {@code mru_ghost_hits}. */
    MRU_GHOST_HITS("mru_ghost_hits"),
    /** {@code mfu_ghost_hits}. */
    MFU_GHOST_HITS("mfu_ghost_hits"),
    /** {@code deleted}: ghost headers destroyed by eviction. */
    DELETED("deleted"),
    /** {@code evict_skip}: headers skipped by eviction (prefetch minimum lifetime). */
    EVICT_SKIP("evict_skip"),
    /** {@code evict_not_enough}: eviction scans that could not evict the bytes asked for. */
    EVICT_NOT_ENOUGH("evict_not_enough"),
    /** {@code mutex_miss}: headers skipped because their hash lock was held (by the caller). */
    MUTEX_MISS("mutex_miss"),
    /**
     * {@code demand_hit_prescient_prefetch}: demand hits on a header still marked
     * {@code ARC_FLAG_PRESCIENT_PREFETCH}, which the hit clears ({@code arc_read}, arc.c:6032-6037).
     */
    DEMAND_HIT_PRESCIENT_PREFETCH("demand_hit_prescient_prefetch"),
    /**
     * {@code overhead_size}: bytes of buffers that are private copies rather than shared with their
     * header's data; a gauge, raised by {@code arc_buf_alloc_impl} and {@code arc_unshare_buf}, lowered
     * by {@code arc_buf_destroy_impl} and {@code arc_share_buf}.
     */
    OVERHEAD_SIZE("overhead_size"),
    /**
     * {@code compressed_size}: bytes of header data ({@code b_pabd}), a gauge raised by
     * {@code arc_hdr_alloc_abd} and {@code arc_share_buf}, lowered by {@code arc_hdr_free_abd} and
     * {@code arc_unshare_buf}; equal to {@code uncompressed_size} because nothing is compressed.
     */
    COMPRESSED_SIZE("compressed_size"),
    /** {@code uncompressed_size}: the logical size of the header data; moves with {@code compressed_size}. */
    UNCOMPRESSED_SIZE("uncompressed_size"),
    /** Not an arcstat: headers moved from MRU or MFU to their ghost state by eviction. */
    EVICTIONS("evictions"),
    /** Not an arcstat: bytes of data evicted from MRU or MFU (ZFS splits them over evict_l2_*). */
    EVICTED_BYTES("evicted_bytes"),
    /** Not an arcstat: allocations that queued an eviction waiter ({@code ARC_OVF_SEVERE}). */
    EVICT_WAITS("evict_waits"),
    /** Not an arcstat: runs of {@code arc_evict_cb}. */
    EVICTOR_RUNS("evictor_runs"),
    /** zfs-2.2.0: demand hits on metadata ({@code ARCSTAT_CONDSTAT} by the request's prefetch flag and type). */
    DEMAND_METADATA_HITS("demand_metadata_hits"),
    /** zfs-2.2.0: prefetch hits on metadata. */
    PREFETCH_METADATA_HITS("prefetch_metadata_hits"),
    /** zfs-2.2.0: demand misses of metadata. */
    DEMAND_METADATA_MISSES("demand_metadata_misses"),
    /** zfs-2.2.0: prefetch misses of metadata. */
    PREFETCH_METADATA_MISSES("prefetch_metadata_misses"),
    /** zfs-2.2.0: a demand hit that clears {@code ARC_FLAG_PREFETCH} of a header not prescient. */
    DEMAND_HIT_PREDICTIVE_PREFETCH("demand_hit_predictive_prefetch");

    private final String kstatName;

    ArcStat(String kstatName) {
        this.kstatName = kstatName;
    }

    /** @return the arcstats name, or the spec's own lower-case name for those that are not arcstats */
    public String kstatName() {
        return kstatName;
    }

    /**
     * @param engine an engine
     * @return the statistics it keeps, in the order its conformance lines write them
     */
    public static List<ArcStat> of(ZfsEngine engine) {
        if (engine == ZfsEngine.V2_1_1) {
            return List.of(HITS, MISSES, DEMAND_DATA_HITS, PREFETCH_DATA_HITS, DEMAND_DATA_MISSES, PREFETCH_DATA_MISSES,
                    MRU_HITS, MFU_HITS, MRU_GHOST_HITS, MFU_GHOST_HITS, DELETED, EVICT_SKIP, EVICT_NOT_ENOUGH, MUTEX_MISS,
                    DEMAND_HIT_PRESCIENT_PREFETCH, OVERHEAD_SIZE, COMPRESSED_SIZE, UNCOMPRESSED_SIZE, EVICTIONS,
                    EVICTED_BYTES, EVICT_WAITS, EVICTOR_RUNS);
        }
        return List.of(HITS, MISSES, DEMAND_DATA_HITS, DEMAND_METADATA_HITS, PREFETCH_DATA_HITS,
                PREFETCH_METADATA_HITS, DEMAND_DATA_MISSES, DEMAND_METADATA_MISSES, PREFETCH_DATA_MISSES,
                PREFETCH_METADATA_MISSES, MRU_HITS, MFU_HITS, MRU_GHOST_HITS, MFU_GHOST_HITS, DELETED, EVICT_SKIP,
                EVICT_NOT_ENOUGH, MUTEX_MISS, DEMAND_HIT_PREDICTIVE_PREFETCH, DEMAND_HIT_PRESCIENT_PREFETCH,
                OVERHEAD_SIZE, COMPRESSED_SIZE, UNCOMPRESSED_SIZE, EVICTIONS, EVICTED_BYTES, EVICT_WAITS, EVICTOR_RUNS);
    }

    /**
     * zfs-2.2.0's {@code ARCSTAT_CONDSTAT(!prefetch, demand, prefetch, is_data, data, metadata, hits|misses)}.
     *
     * @param prefetch whether the request was a prefetch ({@code ARC_FLAG_PREFETCH} in {@code arc_flags})
     * @param type the header's type
     * @param hit hits or misses
     * @return the statistic
     */
    public static ArcStat of(boolean prefetch, BufType type, boolean hit) {
        boolean data = type == BufType.DATA;
        if (hit) {
            return prefetch ? (data ? PREFETCH_DATA_HITS : PREFETCH_METADATA_HITS)
                    : (data ? DEMAND_DATA_HITS : DEMAND_METADATA_HITS);
        }
        return prefetch ? (data ? PREFETCH_DATA_MISSES : PREFETCH_METADATA_MISSES)
                : (data ? DEMAND_DATA_MISSES : DEMAND_METADATA_MISSES);
    }
}
