package org.arcref.zfs;

/**
 * A buffer header ({@code arc_buf_hdr_t} with its L1 part), mutable, owned by a {@link SequentialArc} (either
 * engine). The concurrent ARC's {@code org.arcref.arc.ArcHeader} copies it on purpose ({@link ZfsArc}'s
 * implementation overview says why).
 */
final class Header extends ListNode {
    final long key;
    final long size;
    final int sublist;
    final BufType type;
    ArcState state = ArcState.ANON;
    boolean hasData;
    boolean sharedData;
    int refcount;
    boolean prefetch;
    boolean prescientPrefetch;
    long lastAccess;
    /**
     * {@code ARC_FLAG_IO_IN_PROGRESS} (zfs-2.2.0's engine only): a read is in flight and holds one reference of
     * {@link #refcount} that is not a buffer.
     */
    boolean ioInProgress;

    Header(long key, long size, int sublist) {
        this(key, size, sublist, BufType.DATA);
    }

    Header(long key, long size, int sublist, BufType type) {
        this.key = key;
        this.size = size;
        this.sublist = sublist;
        this.type = type;
    }

    /** @return the buffers ({@code arc_buf_t}) of the header: its references but an I/O's */
    int buffers() {
        return ioInProgress ? refcount - 1 : refcount;
    }

    /** @return {@link ArcArithmetic#accountedSize} of this header */
    long accountedSize() {
        return ArcArithmetic.accountedSize(state, size, hasData, sharedData, buffers());
    }

    /**
     * @return a header with another identity and everything else of this one (state, data and its sharing, holds, flags, access
     *     time): this header after {@code buf_discard_identity} and the new identity {@code arc_write_done} gives
     *     it, which also chooses its sublist ({@code arc_state_multilist_index_func} hashes the identity)
     */
    Header renamed(long newKey, int newSublist) {
        Header h = new Header(newKey, size, newSublist, type);
        h.state = state;
        h.hasData = hasData;
        h.sharedData = sharedData;
        h.refcount = refcount;
        h.prefetch = prefetch;
        h.prescientPrefetch = prescientPrefetch;
        h.lastAccess = lastAccess;
        return h;
    }

    HeaderSnapshot snapshot() {
        return new HeaderSnapshot(key, state, size, hasData, sharedData, refcount, prefetch, prescientPrefetch,
                lastAccess, sublist, linked, type);
    }
}
