package org.arcref.zfs;

/**
 * The ZFS module parameters and internal tunables the spec uses, with the zfs-2.1.1 defaults of
 * the fact sheet's table (e). Immutable; {@link #defaults()} gives the ZFS values and the
 * {@code with...} methods return modified copies, validated.
 *
 * @param pMinShift {@code arc_p_min_shift}: {@code arc_p_min = arc_c >> pMinShift} (4)
 * @param shrinkShift {@code arc_shrink_shift}: {@code arc_p} decays by {@code arc_p >> shrinkShift}
 *     on a target reduction, and the reaper frees {@code arc_c >> shrinkShift} (7)
 * @param noGrowShift {@code arc_no_grow_shift}: no growth while free memory is below
 *     {@code arc_c >> noGrowShift} (5); must be below {@code shrinkShift}
 * @param growRetrySeconds {@code arc_grow_retry}: seconds without growth after memory pressure (5)
 * @param overflowShift {@code zfs_arc_overflow_shift}: overflow is {@code MAX(SPA_MAXBLOCKSIZE,
 *     arc_c >> overflowShift)} (8)
 * @param evictionPct {@code zfs_arc_eviction_pct}: a waiter asks for {@code size * pct / 100}
 *     bytes (200)
 * @param evictBatchLimit {@code zfs_arc_evict_batch_limit}: headers evicted per sublist visit (10)
 * @param pDampenerDisable {@code zfs_arc_p_dampener_disable}: when {@code false}, {@code arc_adapt}
 *     caps its multiplier at 10 ({@code true}: the dampener is off)
 * @param minPrefetchMs {@code arc_min_prefetch_ms}: minimum lifetime of prefetched headers (1000)
 * @param minPrescientPrefetchMs {@code arc_min_prescient_prefetch_ms}: the same for prescient
 *     prefetches (6000)
 * @param abdScatterEnabled {@code zfs_abd_scatter_enabled} (abd.c:106, default {@code B_TRUE}):
 *     {@code abd_alloc} gives scatter ABDs to allocations of {@code abdScatterMinSize} bytes or more,
 *     and {@code arc_write_ready} gives a written block separate header data instead of sharing the
 *     writer's buffer; {@code false} makes every ABD linear (how the spec behaved before it modelled
 *     scatter ABDs); see {@link ArcArithmetic#linearAbd}
 * @param abdScatterMinSize {@code zfs_abd_scatter_min_size} (Linux abd_os.c:176, default
 *     {@code 512 * 3} = 1536): smaller allocations are linear even with scatter enabled; at least 0
 */
public record Tunables(int pMinShift, int shrinkShift, int noGrowShift, int growRetrySeconds,
        int overflowShift, int evictionPct, int evictBatchLimit, boolean pDampenerDisable,
        int minPrefetchMs, int minPrescientPrefetchMs, boolean abdScatterEnabled, int abdScatterMinSize) {

    /** Validates every tunable; see the class comment for the meaning of each. */
    public Tunables {
        Validate.range("pMinShift", pMinShift, 1, 63);
        Validate.range("shrinkShift", shrinkShift, 1, 63);
        Validate.range("noGrowShift", noGrowShift, 0, shrinkShift - 1);
        Validate.range("growRetrySeconds", growRetrySeconds, 0, 86_400);
        Validate.range("overflowShift", overflowShift, 0, 63);
        Validate.range("evictionPct", evictionPct, 0, 100_000);
        Validate.range("evictBatchLimit", evictBatchLimit, 1, 1 << 20);
        Validate.range("minPrefetchMs", minPrefetchMs, 0, 86_400_000);
        Validate.range("minPrescientPrefetchMs", minPrescientPrefetchMs, 0, 86_400_000);
        Validate.range("abdScatterMinSize", abdScatterMinSize, 0, Integer.MAX_VALUE);
    }

    /** @return the zfs-2.1.1 defaults */
    public static Tunables defaults() {
        return new Tunables(4, 7, 5, 5, 8, 200, 10, true, 1000, 6000, true, 1536);
    }

    /** @param value the new {@code zfs_arc_evict_batch_limit} @return a copy with it */
    public Tunables withEvictBatchLimit(int value) {
        return new Tunables(pMinShift, shrinkShift, noGrowShift, growRetrySeconds, overflowShift,
                evictionPct, value, pDampenerDisable, minPrefetchMs, minPrescientPrefetchMs,
                abdScatterEnabled, abdScatterMinSize);
    }

    /** @param value the new {@code zfs_arc_p_dampener_disable} @return a copy with it */
    public Tunables withPDampenerDisable(boolean value) {
        return new Tunables(pMinShift, shrinkShift, noGrowShift, growRetrySeconds, overflowShift,
                evictionPct, evictBatchLimit, value, minPrefetchMs, minPrescientPrefetchMs,
                abdScatterEnabled, abdScatterMinSize);
    }

    /** @param value the new {@code zfs_arc_overflow_shift} @return a copy with it */
    public Tunables withOverflowShift(int value) {
        return new Tunables(pMinShift, shrinkShift, noGrowShift, growRetrySeconds, value,
                evictionPct, evictBatchLimit, pDampenerDisable, minPrefetchMs, minPrescientPrefetchMs,
                abdScatterEnabled, abdScatterMinSize);
    }

    /** @param value the new {@code zfs_abd_scatter_enabled} @return a copy with it */
    public Tunables withAbdScatterEnabled(boolean value) {
        return new Tunables(pMinShift, shrinkShift, noGrowShift, growRetrySeconds, overflowShift,
                evictionPct, evictBatchLimit, pDampenerDisable, minPrefetchMs, minPrescientPrefetchMs,
                value, abdScatterMinSize);
    }
}
