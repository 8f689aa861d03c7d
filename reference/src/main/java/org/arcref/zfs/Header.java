package org.arcref.zfs;

/** A buffer header ({@code arc_buf_hdr_t} with its L1 part), mutable, owned by {@link ZfsArc}. */
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

    /** @return {@link HeaderSnapshot#accountedSize(ArcState, long, boolean, boolean, int)} of this header */
    long accountedSize() {
        return HeaderSnapshot.accountedSize(state, size, hasData, sharedData, refcount);
    }

    HeaderSnapshot snapshot() {
        return new HeaderSnapshot(key, state, size, hasData, sharedData, refcount, prefetch, prescientPrefetch,
                lastAccess, sublist, linked);
    }
}
