package org.arcref.zfs;

import java.util.List;

/**
 * The ARC states a buffer header can be in (ZFS {@code arc_state_type_t}; the state objects
 * {@code arc_anon}, {@code arc_mru}, {@code arc_mru_ghost}, {@code arc_mfu}, {@code arc_mfu_ghost}, and zfs-2.2.0's
 * {@code arc_uncached}). ZFS's {@code arc_l2c_only} is not modelled (no L2ARC). {@link #of(ZfsEngine)} lists the
 * states of one engine.
 */
public enum ArcState {
    /** {@code arc_anon}: buffers being read or written, not yet cached; never on an eviction list. */
    ANON("anon"),
    /** {@code arc_mru}: cached data seen once (or within {@code ARC_MINTIME} of its first access). */
    MRU("mru"),
    /** {@code arc_mru_ghost}: headers of data evicted from MRU; counts their logical size. */
    MRU_GHOST("mru_ghost"),
    /** {@code arc_mfu}: cached data accessed again after {@code ARC_MINTIME}. */
    MFU("mfu"),
    /** {@code arc_mfu_ghost}: headers of data evicted from MFU; counts their logical size. */
    MFU_GHOST("mfu_ghost"),
    /**
     * {@code arc_uncached} (zfs-2.2.0 on): headers read with {@code ARC_FLAG_UNCACHED}. One without a reference is
     * destroyed unless it is a prefetch; a prefetch waits on the list for the evict zthr's periodic flush.
     */
    UNCACHED("uncached");

    private static final List<ArcState> V2_1_1_STATES = List.of(ANON, MRU, MRU_GHOST, MFU, MFU_GHOST);
    private static final List<ArcState> V2_2_0_STATES = List.of(values());

    private final String zfsName;

    ArcState(String zfsName) {
        this.zfsName = zfsName;
    }

    /**
     * @param engine an engine
     * @return the states its release has, in the conformance format's order: zfs-2.1.1's five; zfs-2.2.0's adds
     *     {@link #UNCACHED}
     */
    public static List<ArcState> of(ZfsEngine engine) {
        return engine == ZfsEngine.V2_1_1 ? V2_1_1_STATES : V2_2_0_STATES;
    }

    /** @return {@code true} for the ghost states (ZFS {@code GHOST_STATE()}) */
    public boolean isGhost() {
        return this == MRU_GHOST || this == MFU_GHOST;
    }

    /** @return {@code true} if headers of this state are kept on an eviction list (all but anon) */
    public boolean hasList() {
        return this != ANON;
    }

    /** @return the ZFS name of the state, such as {@code mru_ghost}, as used in conformance output */
    public String zfsName() {
        return zfsName;
    }
}
