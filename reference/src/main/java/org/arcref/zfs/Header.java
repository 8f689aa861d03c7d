package org.arcref.zfs;

/** A buffer header ({@code arc_buf_hdr_t} with its L1 part), mutable, owned by {@link ZfsArc}. */
final class Header extends ListNode {
    final long key;
    final long size;
    final int sublist;
    ArcState state = ArcState.ANON;
    boolean hasData;
    int refcount;
    boolean prefetch;
    boolean prescientPrefetch;
    long lastAccess;

    Header(long key, long size, int sublist) {
        this.key = key;
        this.size = size;
        this.sublist = sublist;
    }

    /**
     * @return the bytes this header contributes to the size of its state ({@code arc_change_state}):
     *     the logical size for a ghost; otherwise its data ({@code b_pabd}) plus one private copy per
     *     buffer beyond the first, which shares the data (each hold is a buffer)
     */
    long accountedSize() {
        if (state.isGhost()) {
            return size;
        }
        return hasData ? size * Math.max(1, refcount) : 0;
    }

    /**
     * @return a header with another identity and everything else of this one (state, data, holds, flags, access
     *     time): this header after {@code buf_discard_identity} and the new identity {@code arc_write_done} gives
     *     it, which also chooses its sublist ({@code arc_state_multilist_index_func} hashes the identity)
     */
    Header renamed(long newKey, int newSublist) {
        Header h = new Header(newKey, size, newSublist);
        h.state = state;
        h.hasData = hasData;
        h.refcount = refcount;
        h.prefetch = prefetch;
        h.prescientPrefetch = prescientPrefetch;
        h.lastAccess = lastAccess;
        return h;
    }

    HeaderSnapshot snapshot() {
        return new HeaderSnapshot(key, state, size, hasData, refcount, prefetch, prescientPrefetch,
                lastAccess, sublist, linked);
    }
}
