package org.arcref.arc;

import org.arcref.zfs.Validate;
import org.arcref.zthr.ZthrPriority;

/**
 * How a {@link ConcurrentArc} is built, beyond the policy's {@link org.arcref.zfs.ArcConfig}.
 *
 * @param exactSize whether {@code arc_size} is an {@linkplain org.arcref.aggsum.AggSum#exact exact} aggsum (no
 *     borrowing, bounds always equal to the value) instead of a per-CPU one
 * @param evictor how the evictor runs: {@link EvictorMode#STEPPED} on the calling threads, or the {@code arc_evict}
 *     zthr at a priority ({@link EvictorMode#zthr})
 * @param exactPGrowthCompare experiment E2: the {@code arc_p} growth check of {@code arc_get_data_impl} uses the
 *     exact {@code aggsum_compare(&arc_size, arc_c) < 0} of zfs ≤ 0.8 instead of 2.1.1's
 *     {@code aggsum_upper_bound(&arc_size) < arc_c} (commit c1b5801bb5, #8901)
 * @param hashLocks the number of hash locks ({@code BUF_LOCKS}), a power of two
 */
public record ArcOptions(boolean exactSize, EvictorMode evictor, boolean exactPGrowthCompare, int hashLocks) {

    /** zfs-2.1.1's {@code BUF_LOCKS} (#12289). */
    public static final int ZFS_BUF_LOCKS = 2048;

    /** Validates the evictor mode and the hash lock count. */
    public ArcOptions {
        Validate.notNull("evictor", evictor);
        if (hashLocks <= 0 || Integer.bitCount(hashLocks) != 1) {
            throw new IllegalArgumentException("hashLocks must be a power of two, was " + hashLocks);
        }
    }

    /** @return zfs-2.1.1: a per-CPU aggsum, the evict zthr at {@code defclsyspri}, the upper-bound check */
    public static ArcOptions zfs() {
        return new ArcOptions(false, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false, ZFS_BUF_LOCKS);
    }

    /**
     * @return the deterministic mode of property D1: an exact aggsum and the evictor stepped on the calling
     *     thread, so that one thread gets exactly the spec's results and snapshots
     */
    public static ArcOptions deterministic() {
        return new ArcOptions(true, EvictorMode.STEPPED, false, ZFS_BUF_LOCKS);
    }

    /**
     * @param priority the evict zthr's priority (experiment E1), not null
     * @return these options with the evict zthr at it
     * @throws IllegalArgumentException if {@code priority} is null
     */
    public ArcOptions withEvictorPriority(ZthrPriority priority) {
        return new ArcOptions(exactSize, EvictorMode.zthr(priority), exactPGrowthCompare, hashLocks);
    }

    /**
     * @return these options with no zthr: the evictor is stepped on the calling threads. With the per-CPU aggsum
     *     of {@link #zfs()} this isolates the aggsum's slack from the evictor's scheduling (property D2)
     */
    public ArcOptions withSteppedEvictor() {
        return new ArcOptions(exactSize, EvictorMode.STEPPED, exactPGrowthCompare, hashLocks);
    }

    /** @return whether the evictor is stepped on the calling threads (no zthr) */
    public boolean isStepped() {
        return evictor instanceof EvictorMode.Stepped;
    }

    /** @param value whether to use the exact compare (experiment E2) @return these options with it */
    public ArcOptions withExactPGrowthCompare(boolean value) {
        return new ArcOptions(exactSize, evictor, value, hashLocks);
    }
}
