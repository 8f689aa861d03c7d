package org.arcref.zfs;

/**
 * A buffer header ({@code arc_buf_hdr_t} with its L1 part), mutable, owned by {@link ZfsArc}. The concurrent ARC's
 * {@code org.arcref.arc.ArcHeader} copies it on purpose ({@link ZfsArc}'s implementation overview says why).
 */
final class Header extends ListNode {
    final long key;
    final long size;
    final int sublist;
    ArcState state = ArcState.ANON;
    boolean hasData;
    boolean sharedData;
    int refcount;
    boolean prefetch;
    boolean prescientPrefetch;
    long lastAccess;

    Header(long key, long size, int sublist) {
        this.key = key;
        this.size = size;
        this.sublist = sublist;
    }

    /** @return {@link ArcArithmetic#accountedSize} of this header */
    long accountedSize() {
        return ArcArithmetic.accountedSize(state, size, hasData, sharedData, refcount);
    }

    /**
     * @return a header with another identity and everything else of this one (state, data and its sharing, holds, flags, access
     *     time): this header after {@code buf_discard_identity} and the new identity {@code arc_write_done} gives
     *     it, which also chooses its sublist ({@code arc_state_multilist_index_func} hashes the identity)
     */
    Header renamed(long newKey, int newSublist) {
        Header h = new Header(newKey, size, newSublist);
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
                lastAccess, sublist, linked);
    }
}
