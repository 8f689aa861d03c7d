package org.arcref.arc;

import org.arcref.zfs.ArcArithmetic;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;

/**
 * A buffer header ({@code arc_buf_hdr_t} with its L1 part) and its value ({@code b_pabd}'s contents). The key,
 * size and sublist are fixed; every other field is guarded by the header's hash lock ({@link BufHashTable}),
 * except the list links of {@link SublistNode}, which are guarded by the sublist lock. A header is linked on its
 * state's list only while both locks are held, so either lock is enough to read {@link #linked()}. Its fields and
 * helpers are the spec's {@code org.arcref.zfs.Header} again, a copy kept on purpose ({@link ConcurrentArc}'s
 * implementation overview says why).
 *
 * @param <V> the type of the cached values
 */
final class ArcHeader<V> extends SublistNode {
    final long key;
    final long size;
    final int sublist;
    ArcState state = ArcState.ANON;
    /** {@code b_pabd}: the value, present while the header holds data; null for ghosts. */
    V value;
    boolean hasData;
    /** {@code ARC_FLAG_SHARED_DATA}: one buffer shares {@code b_pabd}. */
    boolean sharedData;
    /** {@code b_refcnt}, and {@code b_bufcnt}: each hold is one buffer. */
    int refcount;
    boolean prefetch;
    boolean prescientPrefetch;
    /** {@code b_arc_access}. */
    long lastAccess;
    /** {@code b_hash_next}: the next header of this one's {@link BufHashTable} bucket. */
    ArcHeader<V> hashNext;
    /** {@code ARC_FLAG_IN_HASH_TABLE}. */
    boolean hashed;

    ArcHeader(long key, long size, int sublist) {
        this.key = key;
        this.size = size;
        this.sublist = sublist;
    }

    boolean linked() {
        return newer != null;
    }

    /** @return {@link ArcArithmetic#accountedSize} of this header */
    long accountedSize() {
        return ArcArithmetic.accountedSize(state, size, hasData, sharedData, refcount);
    }

    /**
     * @return a header with another identity, not hashed, and everything else of this one (state, value, data,
     *     holds, flags, access time): this header after {@code buf_discard_identity} with the identity
     *     {@code arc_write_done} will give it, which also chooses its sublist
     */
    ArcHeader<V> renamed(long newKey, int newSublist) {
        ArcHeader<V> h = new ArcHeader<>(newKey, size, newSublist);
        h.state = state;
        h.value = value;
        h.hasData = hasData;
        h.sharedData = sharedData;
        h.refcount = refcount;
        h.prefetch = prefetch;
        h.prescientPrefetch = prescientPrefetch;
        h.lastAccess = lastAccess;
        return h;
    }

    HeaderSnapshot snapshot() {
        return new HeaderSnapshot(key, state, size, hasData, sharedData, refcount, prefetch, prescientPrefetch, lastAccess,
                sublist, linked());
    }
}
