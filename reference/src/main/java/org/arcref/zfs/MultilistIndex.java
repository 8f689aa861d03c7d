package org.arcref.zfs;

import org.arcref.random.SplitMix64;

/**
 * The multilist index function ({@code multilist_t}'s {@code ml_index_func}), public so that every
 * implementation of the policy puts a header in the same sublist as the spec.
 */
public final class MultilistIndex {

    private MultilistIndex() {
    }

    /**
     * Stands for ZFS's {@code buf_hash() % num_sublists}: the SplitMix64 finaliser of the key,
     * unsigned, modulo the sublist count.
     *
     * @param key the block identity
     * @param sublists the number of sublists, at least 1
     * @return the sublist index in {@code [0, sublists)}
     */
    public static int sublistOf(long key, int sublists) {
        return (int) Long.remainderUnsigned(SplitMix64.mix(key), sublists);
    }
}
