package org.arcref.zfs;

/**
 * The spec's only source of randomness and its multilist index function, both SplitMix64 (Steele,
 * Lea and Flood, OOPSLA 2014) so that a port can reproduce them exactly from this description:
 * <ul>
 *   <li>{@link #mix(long)}: {@code z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >>> 27))
 *       * 0x94D049BB133111EB; return z ^ (z >>> 31)} in wrapping 64-bit arithmetic;</li>
 *   <li>{@link #nextIndex(int)}: {@code state += 0x9E3779B97F4A7C15}, then {@code mix(state)}
 *       taken unsigned modulo the bound.</li>
 * </ul>
 * ZFS uses {@code spa_get_random()} for the sublist where an eviction scan starts
 * ({@code multilist_get_random_index}) and {@code buf_hash()} for a header's sublist.
 */
final class SplitMix64 {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    /** @return the SplitMix64 finaliser of {@code z} */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return the next index in {@code [0, bound)}, ZFS {@code spa_get_random(bound)} */
    int nextIndex(int bound) {
        state += GOLDEN_GAMMA;
        return (int) Long.remainderUnsigned(mix(state), bound);
    }

    /** @return the sublist of a key, standing for ZFS's {@code buf_hash() % num_sublists} */
    static int sublistOf(long key, int sublists) {
        return (int) Long.remainderUnsigned(mix(key), sublists);
    }
}
