package org.arcref.zfs;

import org.arcref.random.SplitMix64;

/**
 * The multilist's two choices of a sublist, public so that every implementation of the policy makes them as the spec
 * does: where a header goes ({@code ml_index_func}) and where an eviction scan starts
 * ({@code multilist_get_random_index}).
 */
public final class MultilistIndex {

    private MultilistIndex() {
    }

    /**
     * {@code arc_state_multilist_index_func} (arc.c:7452): {@code (unsigned int)buf_hash(...) % num_sublists}, the
     * hash truncated to 32 bits ({@link BufHash#of}).
     *
     * @param key the block identity
     * @param sublists the number of sublists, at least 1
     * @return the sublist index in {@code [0, sublists)}
     */
    public static int sublistOf(long key, int sublists) {
        return Integer.remainderUnsigned((int) BufHash.of(key), sublists);
    }

    /**
     * {@code multilist_get_random_index}, that is {@code random_in_range(num_sublists)} of 2.1.1's zfs_context.h: 0
     * without a draw for one sublist; otherwise a 32-bit draw (the low half of the generator's next value, as
     * {@code random_get_pseudo_bytes} fills a {@code uint32_t} from it in the oracle) modulo the count.
     *
     * @param random the ARC's generator
     * @param sublists the number of sublists, at least 1
     * @return the sublist index in {@code [0, sublists)}
     */
    public static int randomIndex(SplitMix64 random, int sublists) {
        return sublists == 1 ? 0 : Integer.remainderUnsigned((int) random.nextLong(), sublists);
    }

    /**
     * The draws of {@code arc_evict_type(state)}, which {@code arc_evict} asks before it evicts from MRU and again
     * before MFU: {@link #randomIndex} for the state's data multilist, then for its metadata multilist. With data
     * only its answer is always data; its draws still move the generator the next scan's start comes from.
     *
     * @param random the ARC's generator
     * @param sublists the number of sublists of every multilist, at least 1
     */
    public static void evictTypeDraws(SplitMix64 random, int sublists) {
        randomIndex(random, sublists);
        randomIndex(random, sublists);
    }
}
