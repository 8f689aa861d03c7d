package org.arcref.zfs.check;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.StateSnapshot;

/**
 * The checks on headers that both engines' invariants share, because both engines keep headers, lists and
 * accounting the same way ({@code arc_change_state}, {@code add_reference}, {@code arc_get_data_impl},
 * {@code arc_free_data_impl}): what a snapshot reports against the sums over its headers, per state and buffer
 * type, and which headers are listed and hold data. zfs-2.1.1's engine keeps one size per state (its headers are
 * all data: {@code types} is data alone); zfs-2.2.0's keeps {@code arcs_size[type]} and {@code arcs_esize[type]}.
 * {@link ArcInvariants} (R3–R6) and {@link Arc22Invariants} (R22-3–R22-6) call them with their own names.
 */
final class EngineChecks {

    private EngineChecks() {
    }

    /**
     * What a snapshot reports.
     *
     * @param size {@code arc_size}
     * @param compressed {@code compressed_size}
     * @param uncompressed {@code uncompressed_size}
     * @param overhead {@code overhead_size}
     * @param states a state's accounting for a type
     * @param types the types the engine keeps apart
     */
    record Reported(long size, long compressed, long uncompressed, long overhead,
            BiFunction<ArcState, BufType, StateSnapshot> states, List<BufType> types) {
    }

    /**
     * Checks that {@code arc_size} is the resident data (header data plus private copies, {@link ArcInvariants#heldBytes})
     * and the sum of the non-ghost states' sizes, that the gauges split it into header data and copies, that every MRU
     * and MFU header holds data, and that each state's size and evictable size per type are the sums over its headers
     * and its listed headers.
     *
     * @param headers every header
     * @param r what the snapshot reports
     * @param resident the name of the {@code arc_size} promise (R3 or R22-3)
     * @param perState the name of the per-state promise (R4 or R22-4)
     * @param snapshot the snapshot, rendered on failure
     * @throws PropertyViolation naming the promise that fails
     */
    static void accounting(List<HeaderSnapshot> headers, Reported r, Property resident, Property perState,
            Object snapshot) {
        Map<BufType, Map<ArcState, long[]>> sums = new EnumMap<>(BufType.class);
        for (BufType t : r.types()) {
            Map<ArcState, long[]> byState = new EnumMap<>(ArcState.class);
            for (ArcState st : ArcState.values()) {
                byState.put(st, new long[2]);
            }
            sums.put(t, byState);
        }
        long residentBytes = 0;
        long headerData = 0;
        for (HeaderSnapshot h : headers) {
            require(h.state().isGhost() || h.state() == ArcState.ANON || h.hasData(), perState, "every MRU and MFU "
                    + "header holds data (its state counts its buffers and data, and one without data counts 0 bytes, "
                    + "so the sums alone cannot see it), " + h, snapshot);
            require(sums.containsKey(h.type()), perState, "every header's type is one the engine keeps, " + h,
                    snapshot);
            long accounted = ArcInvariants.heldBytes(h);
            long[] sum = sums.get(h.type()).get(h.state());
            sum[0] += accounted;
            if (h.linked()) {
                sum[1] += accounted;
            }
            if (!h.state().isGhost()) {
                residentBytes += accounted;
                headerData += h.hasData() ? h.size() : 0;
            }
        }
        require(r.size() == residentBytes, resident, "arc_size == sum of resident data, header data plus private "
                + "copies (" + residentBytes + ")", snapshot);
        require(r.compressed() == headerData && r.uncompressed() == headerData, resident,
                "compressed_size == uncompressed_size == sum of header data (" + headerData + ")", snapshot);
        require(r.overhead() == residentBytes - headerData, resident, "overhead_size == sum of private copies ("
                + (residentBytes - headerData) + ")", snapshot);
        boolean typed = r.types().size() > 1;
        long liveStates = 0;
        for (BufType t : r.types()) {
            for (ArcState st : ArcState.values()) {
                StateSnapshot ss = r.states().apply(st, t);
                long[] sum = sums.get(t).get(st);
                String of = (typed ? "[" + t.zfsName() + "] of " : " of ") + st.zfsName();
                require(ss.size() == sum[0], perState, "arcs_size" + of + " == sum over its headers (" + sum[0] + ")",
                        snapshot);
                require(ss.evictableSize() == sum[1], perState, "arcs_esize" + of + " == sum over its listed headers ("
                        + sum[1] + ")", snapshot);
                require(ss.evictableSize() <= ss.size(), perState, "esize <= size for" + of, snapshot);
                if (!st.isGhost()) {
                    liveStates += ss.size();
                }
            }
        }
        require(liveStates == r.size(), resident, "arc_size == the sum of anon, mru and mfu sizes"
                + (typed ? " over both types" : ""), snapshot);
    }

    /**
     * A header is on its state's list exactly when nothing holds it and it is not anonymous; ghosts hold no data
     * and no reference, a pending write no header data, MRU and MFU headers data; only a linear header ABD
     * ({@link ArcInvariants#allocatedLinear}) is shared, with one of the header's buffers; anonymous headers are
     * referenced.
     *
     * @param config the configuration (its ABD tunables)
     * @param headers every header
     * @param listed the name of the list promise (R5 or R22-5)
     * @param data the name of the data promise (R6 or R22-6)
     * @param snapshot the snapshot, rendered on failure
     * @throws PropertyViolation naming the promise that fails
     */
    static void listsAndData(ArcConfig config, List<HeaderSnapshot> headers, Property listed, Property data,
            Object snapshot) {
        for (HeaderSnapshot h : headers) {
            require(h.linked() == (h.refcount() == 0 && h.state() != ArcState.ANON),
                    listed, "linked iff refcount == 0 and not anon, for " + h, snapshot);
            if (h.state().isGhost()) {
                require(!h.hasData() && h.refcount() == 0, data, "ghost headers hold no data and no reference, " + h,
                        snapshot);
            } else if (h.state() == ArcState.ANON) {
                require(!h.hasData(), data, "a pending write's data is its writer's buffer until arc_write_ready, "
                        + h, snapshot);
            } else {
                require(h.hasData(), data, "mru and mfu headers hold data, " + h, snapshot);
            }
            require(!h.sharedData() || h.hasData() && h.refcount() > 0
                    && ArcInvariants.allocatedLinear(config.tunables(), h.size()),
                    data, "only a linear header ABD is shared, and with one of the header's buffers, " + h, snapshot);
            require(h.state() != ArcState.ANON || h.refcount() > 0, data, "anonymous headers are referenced (fact "
                    + "sheet c.1), " + h, snapshot);
        }
    }

    /**
     * {@code arc_evict_count} never decreases, the waiters are queued in order of their counts, and none is left
     * queued when an operation returns.
     *
     * @param before the count before the operation, or null for the first
     * @param after the count after it
     * @param waiters the waiters' {@code aew_count}s after it, head first
     * @param counted the name of the count and order promise (R8 or R22-8)
     * @param released the name of the promise that no waiter is left (R9 or R22-8)
     * @param snapshot the snapshot after, rendered on failure
     * @throws PropertyViolation naming the promise that fails
     */
    static void evictCountAndWaiters(Long before, long after, List<Long> waiters, Property counted,
            Property released, Object snapshot) {
        if (before != null) {
            require(Long.compareUnsigned(before, after) <= 0, counted, "arc_evict_count never decreases (was "
                    + before + ")", snapshot);
        }
        for (int i = 1; i < waiters.size(); i++) {
            require(Long.compareUnsigned(waiters.get(i - 1), waiters.get(i)) <= 0, counted,
                    "waiters sorted by aew_count", snapshot);
        }
        require(waiters.isEmpty(), released, "no eviction waiter is left queued after an operation returns (L1)",
                snapshot);
    }

    /**
     * Whether some live data cannot be evicted now: a header in anon, MRU or MFU that is held (anonymous ones always
     * are), or a prefetch younger than its minimum lifetime ({@code arc_evict_hdr}'s skip, {@link ArcInvariants#ticks}).
     *
     * @param config the configuration (the lifetimes and the clock)
     * @param headers every header
     * @param tick the clock
     * @return whether eviction is blocked by a header
     */
    static boolean liveDataHeldOrYoung(ArcConfig config, List<HeaderSnapshot> headers, long tick) {
        for (HeaderSnapshot h : headers) {
            long lifetime = ArcInvariants.ticks(config, h.prescientPrefetch()
                    ? config.tunables().minPrescientPrefetchMs() : config.tunables().minPrefetchMs());
            if (!h.state().isGhost() && (h.refcount() > 0 || (h.prefetch() && tick - h.lastAccess() < lifetime))) {
                return true;
            }
        }
        return false;
    }

    static void require(boolean ok, Property invariant, String detail, Object snapshot) {
        if (!ok) {
            throw new PropertyViolation(invariant, detail, snapshot.toString());
        }
    }
}
