package org.arcref.zfs;

import java.util.List;

/**
 * The whole state of a ZFS ARC at one moment, immutable, for tests and conformance output. Two
 * implementations of the policy agree when their snapshots are equal after every operation.
 *
 * @param tick the logical clock ({@code ddi_get_lbolt()})
 * @param c {@code arc_c}, the target size (u64)
 * @param p {@code arc_p}, the MRU target (u64)
 * @param cMin {@code arc_c_min}
 * @param cMax {@code arc_c_max}
 * @param size {@code arc_size}: the exact value of the {@code arcstat_size} aggsum
 * @param noGrow {@code arc_no_grow}
 * @param warm {@code arc_warm}
 * @param growTime {@code arc_growtime}, in ticks
 * @param evictNeeded {@code arc_evict_needed}
 * @param evictCount {@code arc_evict_count}: bytes evicted since start (u64, monotone)
 * @param needFree {@code arc_need_free}
 * @param waiterCounts the {@code aew_count} of every queued eviction waiter, head first
 * @param states one entry per {@link ArcState}, by ordinal
 * @param headers every header: anonymous ones by key, then each listed state's eviction list from
 *     newest (head) to oldest (tail) per sublist, then held headers of that state by key
 * @param stats the statistics
 */
public record ArcSnapshot(long tick, long c, long p, long cMin, long cMax, long size, boolean noGrow,
        boolean warm, long growTime, boolean evictNeeded, long evictCount, long needFree,
        List<Long> waiterCounts, List<StateSnapshot> states, List<HeaderSnapshot> headers, ArcStats stats) {

    /** Copies the lists so the snapshot stays immutable. */
    public ArcSnapshot {
        waiterCounts = List.copyOf(waiterCounts);
        states = List.copyOf(states);
        headers = List.copyOf(headers);
    }

    /** @param state a state @return its accounting */
    public StateSnapshot state(ArcState state) {
        return states.get(state.ordinal());
    }
}
