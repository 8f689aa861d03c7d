package org.arcref.zfs;

/**
 * The ARC states a buffer header can be in (ZFS {@code arc_state_type_t}; the state objects
 * {@code arc_anon}, {@code arc_mru}, {@code arc_mru_ghost}, {@code arc_mfu}, {@code arc_mfu_ghost}).
 * ZFS's {@code arc_l2c_only} is not modelled (no L2ARC).
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
    MFU_GHOST("mfu_ghost");

    private final String zfsName;

    ArcState(String zfsName) {
        this.zfsName = zfsName;
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
