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
 *     (possible only for a linear ABD, {@link ArcArithmetic#linearAbd}); every other buffer is a private
 *     copy
 * @param refcount {@code b_refcnt}: holds; each hold is one buffer ({@code b_bufcnt}), and a
 *     header with holds is not evictable
 * @param prefetch {@code ARC_FLAG_PREFETCH}
 * @param prescientPrefetch {@code ARC_FLAG_PRESCIENT_PREFETCH}
 * @param lastAccess {@code b_arc_access}: the tick of the last recorded access
 * @param sublist the index of the multilist sublist the header belongs to
 * @param linked whether the header is on its state's eviction list
 * @param type {@code b_type}: data or metadata (always data in zfs-2.1.1's engine)
 */
public record HeaderSnapshot(long key, ArcState state, long size, boolean hasData, boolean sharedData, int refcount,
        boolean prefetch, boolean prescientPrefetch, long lastAccess, int sublist, boolean linked, BufType type) {

    /** Validates that the type is given. */
    public HeaderSnapshot {
        Validate.notNull("type", type);
    }

    /** A data header: every header of zfs-2.1.1's engine. */
    public HeaderSnapshot(long key, ArcState state, long size, boolean hasData, boolean sharedData, int refcount,
            boolean prefetch, boolean prescientPrefetch, long lastAccess, int sublist, boolean linked) {
        this(key, state, size, hasData, sharedData, refcount, prefetch, prescientPrefetch, lastAccess, sublist, linked,
                BufType.DATA);
    }

    /** @return {@link ArcArithmetic#accountedSize} of this header: the bytes it counts in its state's size */
    public long accountedSize() {
        return ArcArithmetic.accountedSize(state, size, hasData, sharedData, refcount);
    }
}
