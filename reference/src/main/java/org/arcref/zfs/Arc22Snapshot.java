package org.arcref.zfs;

import java.util.List;

/**
 * The whole state of a {@link Zfs22Arc} at one moment, immutable, for tests and conformance output.
 *
 * @param tick the logical clock ({@code ddi_get_lbolt()})
 * @param c {@code arc_c} (u64)
 * @param meta {@code arc_meta}: the metadata fraction, 32-bit fixed point (u64)
 * @param pd {@code arc_pd}: the MRU fraction of data (u64)
 * @param pm {@code arc_pm}: the MRU fraction of metadata (u64)
 * @param size {@code arc_size}, exact
 * @param states per state and type ({@link #state}), {@code arcs_size[type]} and {@code arcs_esize[type]}
 * @param ghostHits {@code arcs_hits[type]} of MRU ghost and MFU ghost ({@link #ghostHits(ArcState, BufType)}):
 *     the bytes of every ghost hit since start
 * @param noGrow {@code arc_no_grow}
 * @param warm {@code arc_warm}
 * @param growTime {@code arc_growtime}, in ticks
 * @param evictNeeded {@code arc_evict_needed}
 * @param evictCount {@code arc_evict_count} (u64)
 * @param needFree {@code arc_need_free}
 * @param waiterCounts the {@code aew_count} of every queued eviction waiter, head first
 * @param headers every header, in {@link ArcSnapshot}'s order, each state's data list before its metadata list
 * @param stats the statistics ({@link ArcStat#of(ZfsEngine)} lists those zfs-2.2.0's engine keeps)
 */
public record Arc22Snapshot(long tick, long c, long meta, long pd, long pm, long size, List<StateSnapshot> states,
        List<Long> ghostHits, boolean noGrow, boolean warm, long growTime, boolean evictNeeded, long evictCount,
        long needFree, List<Long> waiterCounts, List<HeaderSnapshot> headers, ArcStats stats) {

    /** Copies the lists so the snapshot stays immutable. */
    public Arc22Snapshot {
        states = List.copyOf(states);
        ghostHits = List.copyOf(ghostHits);
        waiterCounts = List.copyOf(waiterCounts);
        headers = List.copyOf(headers);
    }

    /** @param state a state @param type a type @return its accounting */
    public StateSnapshot state(ArcState state, BufType type) {
        return states.get(SequentialArc.index(state, type));
    }

    /** @param ghost MRU ghost or MFU ghost @param type a type @return the hit bytes counted there */
    public long ghostHits(ArcState ghost, BufType type) {
        return ghostHits.get(ghostIndex(ghost, type));
    }

    /** @param stat a statistic @return its value */
    public long stat(ArcStat stat) {
        return stats.get(stat);
    }

    /** @return the index of a ghost state's hit counter of one type in {@link #ghostHits} */
    static int ghostIndex(ArcState ghost, BufType type) {
        return (ghost == ArcState.MRU_GHOST ? 0 : BufType.values().length) + type.ordinal();
    }
}
