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

    HeaderSnapshot snapshot() {
        return new HeaderSnapshot(key, state, size, hasData, refcount, prefetch, prescientPrefetch,
                lastAccess, sublist, linked);
    }
}
