package org.arcref.random;

/**
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): the project's only source of randomness in
 * reference code, written out so that a port reproduces every random choice exactly:
 * <ul>
 *   <li>{@link #mix(long)}: {@code z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9; z = (z ^ (z >>> 27))
 *       * 0x94D049BB133111EB; return z ^ (z >>> 31)} in wrapping 64-bit arithmetic;</li>
 *   <li>{@link #nextLong()}: {@code state += 0x9E3779B97F4A7C15}, then {@code mix(state)};</li>
 *   <li>{@link #nextIndex(int)}: all 64 bits of {@code nextLong()} taken unsigned modulo the bound (the synthetic
 *       workload's draw, not the ZFS spec's);</li>
 *   <li>{@link #nextDouble()}: the top 53 bits of {@code nextLong()} times 2<sup>-53</sup>.</li>
 * </ul>
 * The ZFS spec draws from it only for {@code multilist_get_random_index} ({@code random_in_range} in 2.1.1: the
 * sublist where an eviction scan starts), and not through {@link #nextIndex(int)}:
 * {@link org.arcref.zfs.ArcArithmetic#randomIndex} makes no draw for one sublist and otherwise takes the low
 * 32 bits of {@code nextLong()}, unsigned, modulo the count, as the oracle's {@code random_get_pseudo_bytes}
 * fills a {@code uint32_t}. The two agree when the count is a power of two and differ otherwise (3 sublists:
 * docs/porting.md, section 4.4, gives test values). Not thread-safe.
 */
public final class SplitMix64 {

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    /** @param seed the initial state; any value */
    public SplitMix64(long seed) {
        this.state = seed;
    }

    /**
     * @return the current state: a generator created with it as its seed continues with exactly the draws this one
     *     would make next
     */
    public long state() {
        return state;
    }

    /** @param z any value @return the SplitMix64 finaliser of {@code z} */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** @return the next 64 random bits */
    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** @param bound the exclusive upper bound, at least 1 @return the next index in {@code [0, bound)} */
    public int nextIndex(int bound) {
        return (int) Long.remainderUnsigned(nextLong(), bound);
    }

    /** @return the next uniform double in {@code [0, 1)} */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }
}
