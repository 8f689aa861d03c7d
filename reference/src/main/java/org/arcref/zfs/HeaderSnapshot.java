package org.arcref.zfs;

/**
 * One buffer header ({@code arc_buf_hdr_t}) at one moment.
 *
 * @param key the block identity (ZFS hashes {@code b_spa}, {@code b_dva}, {@code b_birth})
 * @param state {@code b_state}
 * @param size the logical size in bytes ({@code HDR_GET_LSIZE})
 * @param hasData whether the header holds data ({@code b_pabd != NULL}); never for ghosts, nor for
 *     a pending write, whose data is its writer's buffer until {@code arc_write_ready}
 * @param sharedData {@code ARC_FLAG_SHARED_DATA}: one of the header's buffers shares {@code b_pabd}
 *     (possible only for a linear ABD, {@link Tunables#linearAbd}); every other buffer is a private
 *     copy
 * @param refcount {@code b_refcnt}: holds; each hold is one buffer ({@code b_bufcnt}), and a
 *     header with holds is not evictable
 * @param prefetch {@code ARC_FLAG_PREFETCH}
 * @param prescientPrefetch {@code ARC_FLAG_PRESCIENT_PREFETCH}
 * @param lastAccess {@code b_arc_access}: the tick of the last recorded access
 * @param sublist the index of the multilist sublist the header belongs to
 * @param linked whether the header is on its state's eviction list
 */
public record HeaderSnapshot(long key, ArcState state, long size, boolean hasData, boolean sharedData, int refcount,
        boolean prefetch, boolean prescientPrefetch, long lastAccess, int sublist, boolean linked) {

    /** @return {@link #accountedSize(ArcState, long, boolean, boolean, int)} of this header */
    public long accountedSize() {
        return accountedSize(state, size, hasData, sharedData, refcount);
    }

    /**
     * The bytes a header contributes to the size of its state, as {@code arc_change_state} adds them
     * up (arc.c:2454-2485): the logical size for a ghost; otherwise its data ({@code b_pabd}) plus
     * one private copy per buffer that does not share that data. Each hold is one buffer.
     *
     * @param state {@code b_state}
     * @param size the logical size
     * @param hasData {@code b_pabd != NULL}
     * @param sharedData {@code ARC_FLAG_SHARED_DATA}
     * @param buffers {@code b_bufcnt}
     * @return the bytes
     */
    public static long accountedSize(ArcState state, long size, boolean hasData, boolean sharedData, int buffers) {
        if (state.isGhost()) {
            return size;
        }
        return (hasData ? size : 0) + (buffers - (sharedData ? 1 : 0)) * size;
    }
}
