package org.arcref.zfs;

/**
 * The policy arithmetic of the zfs-2.2.0 ARC (OpenZFS #14359, "More adaptive ARC eviction"), as pure functions
 * named for the arc.c functions they come from, with C's types: {@code u64} values are Java {@code long}s compared
 * and divided unsigned, {@code s64} values are {@code long}s, a right shift of an {@code s64} is arithmetic
 * ({@code >>}), of a {@code u64} logical ({@code >>>}). {@link Zfs22Arc} holds the state and applies them. Line
 * numbers ({@code C4185}) are those of zfs-2.2.0's module/zfs/arc.c.
 *
 * <p>The three fractions {@code arc_meta}, {@code arc_pd} and {@code arc_pm} are 32-bit fixed point: 1.0 is
 * {@link #ONE}. Nothing clamps them: {@link #evictAdj} can move one out of {@code [0, 2^32]} in zfs-2.2.0, which is
 * the defect {@link QuirkFix#EVICT_ADJ_OVERFLOW_17255} removes.
 */
public final class Arc22Arithmetic {

    /** 1.0 in the fractions' fixed point: {@code 1ULL << 32}. */
    public static final long ONE = 1L << 32;

    private Arc22Arithmetic() {
    }

    // ---- arc_evict_adj (C4185) ----

    /**
     * {@code arc_evict_adj(frac, total, up, down, balance)}: moves a fraction by the ghost-hit bytes of the last
     * interval, relative to {@code total}, the ghost lists' targets of the previous pass. zfs-2.2.0: unchanged if
     * {@code total < 8} or no hits; hits of a quarter of {@code total} or more are scaled down to about an eighth;
     * {@code up} is damped above 80 %, {@code down} below 20 %; {@code down} is divided by {@code balance / 100};
     * the result {@code frac + up - down} wraps (u64). With {@link QuirkFix#EVICT_ADJ_OVERFLOW_17255} (zfs-2.2.8)
     * the thresholds are {@code total < 32} and a sixteenth, scaled to a thirty-second, so that one pass moves the
     * fraction by less than 1/16 and it stays within {@code [0, 2^32]}.
     *
     * @param frac the fraction (u64)
     * @param total the sum of the ghost targets it is relative to (u64)
     * @param up hit bytes that raise it (u64)
     * @param down hit bytes that lower it (u64)
     * @param balance {@code zfs_arc_meta_balance} for {@code arc_meta}, 100 for the others; at least 1
     * @param overflowFixed whether {@link QuirkFix#EVICT_ADJ_OVERFLOW_17255} applies
     * @return the new fraction (u64)
     */
    public static long evictAdj(long frac, long total, long up, long down, int balance, boolean overflowFixed) {
        long minTotal = overflowFixed ? 32 : 8;
        long scaleAt = overflowFixed ? 16 : 4;
        long scaleTo = overflowFixed ? 32 : 8;
        if (Long.compareUnsigned(total, minTotal) < 0 || up + down == 0) {
            return frac;
        }
        if (Long.compareUnsigned(up + down, Long.divideUnsigned(total, scaleAt)) >= 0) {
            long scale = Long.divideUnsigned(up + down, Long.divideUnsigned(total, scaleTo));
            up = Long.divideUnsigned(up, scale);
            down = Long.divideUnsigned(down, scale);
        }
        int s = Math.min(64 - highbit64(total), 32);
        long ofrac = ONE - frac;
        if (Long.compareUnsigned(frac, 4 * ofrac) >= 0) {
            up = Long.divideUnsigned(up, Long.divideUnsigned(frac, 2 * ofrac + 1));
        }
        up = Long.divideUnsigned(up << s, total >>> (32 - s));
        if (Long.compareUnsigned(ofrac, 4 * frac) >= 0) {
            down = Long.divideUnsigned(down, Long.divideUnsigned(ofrac, 2 * frac + 1));
        }
        down = Long.divideUnsigned(down << s, total >>> (32 - s));
        down = Long.divideUnsigned(down * 100, balance);
        return frac + up - down;
    }

    /**
     * @param x a u64
     * @return {@code highbit64(x)}: the 1-based position of the highest set bit, 0 for 0
     */
    public static int highbit64(long x) {
        return 64 - Long.numberOfLeadingZeros(x);
    }

    // ---- arc_evict (C4222) ----

    /**
     * A target of {@code arc_evict}: {@code wt * (int64_t)(frac16) >> 16}, the s64 product of the wanted size and a
     * fraction's top bits (C4268, C4286, C4294, C4303). The product wraps as gcc's does; the shift is arithmetic,
     * so a negative product rounds toward minus infinity.
     *
     * @param wanted {@code wt} (s64)
     * @param frac16 the fraction shifted right by 16, as the caller computes it (u64, cast to s64)
     * @return the target (s64)
     */
    public static long target(long wanted, long frac16) {
        return wanted * frac16 >> 16;
    }

    /**
     * @param meta {@code arc_meta}
     * @param pm {@code arc_pm}
     * @return {@code arc_meta * arc_pm >> 48} (u64 product, which wraps when a fraction is out of range): the MRU
     *     metadata share in 16-bit fixed point (C4286)
     */
    public static long mruMetaShare16(long meta, long pm) {
        return meta * pm >>> 48;
    }

    /**
     * {@code e = MIN((int64_t)(asize - arc_c), (int64_t)(have - w))}: what one step of {@code arc_evict} asks to
     * evict from a class, the remaining excess at most.
     *
     * @param asize the size as the pass tracks it (u64)
     * @param c {@code arc_c}
     * @param have the class's size or the total it is compared with (u64 or s64)
     * @param target the class's target {@code w} (s64)
     * @return {@code e} (s64); {@link ArcArithmetic#evictImplBytes} skips a non-positive one
     */
    public static long stepBytes(long asize, long c, long have, long target) {
        return Math.min(asize - c, have - target);
    }

    /**
     * A ghost list's target (C4327–4342): half the sum of the other three live classes, s64 division.
     *
     * @param a a class size (s64)
     * @param b another
     * @param c the third
     * @return {@code (a + b + c) / 2}
     */
    public static long ghostTarget(long a, long b, long c) {
        return (a + b + c) / 2;
    }

    // ---- arc_adapt (C4704) ----

    /**
     * {@code arc_adapt(bytes)}'s new {@code arc_c}, memory permitting (the caller checks
     * {@code arc_reclaim_needed()} and {@code arc_no_grow}): unchanged at or above {@code arc_c_max} or while
     * {@code aggsum_upper_bound(arc_size) + 2 * SPA_MAXBLOCKSIZE < arc_c}; else grown by
     * {@code MAX(bytes, SPA_OLD_MAXBLOCKSIZE)} and clamped to {@code arc_c_max}.
     *
     * @param config the configuration ({@code arc_c_max}, {@code SPA_MAXBLOCKSIZE})
     * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE}
     * @param c {@code arc_c}
     * @param sizeUpperBound {@code aggsum_upper_bound(&arc_size)}
     * @param bytes the allocation
     * @return the new {@code arc_c}
     */
    public static long adaptGrownTarget(ArcConfig config, long oldMaxBlockSize, long c, long sizeUpperBound,
            long bytes) {
        if (Long.compareUnsigned(c, config.cMax()) >= 0
                || Long.compareUnsigned(sizeUpperBound + 2 * config.maxBlockSize(), c) < 0) {
            return c;
        }
        long grown = c + ArcArithmetic.unsignedMax(bytes, oldMaxBlockSize);
        return Long.compareUnsigned(grown, config.cMax()) > 0 ? config.cMax() : grown;
    }

    // ---- arc_is_overflowing (C4737) ----

    /**
     * {@code arc_is_overflowing}. zfs-2.2.0: 2.1.1's rule ({@link ArcArithmetic#overflowLevel}). With
     * {@link QuirkFix#SHRINK_IMPROVEMENTS_16197} (zfs-2.2.9, {@code lax} true as {@code arc_get_data_impl} passes
     * it): {@code over = lower_bound - arc_c - zfs_max_recordsize} (here the largest block); NONE below 0, else
     * SOME below {@code (arc_c >> zfs_arc_overflow_shift) / 2}, three times that with the reserve, else SEVERE.
     *
     * @param config the configuration
     * @param c {@code arc_c}
     * @param sizeLowerBound {@code aggsum_lower_bound(&arc_size)}
     * @param useReserve {@code use_reserve}
     * @return the level
     */
    public static ArcArithmetic.Overflow overflowLevel(ArcConfig config, long c, long sizeLowerBound,
            boolean useReserve) {
        if (!config.applies(QuirkFix.SHRINK_IMPROVEMENTS_16197)) {
            return ArcArithmetic.overflowLevel(config, c, sizeLowerBound, useReserve);
        }
        long over = sizeLowerBound - c - config.maxBlockSize();
        if (over < 0) {
            return ArcArithmetic.Overflow.NONE;
        }
        long overflow = (c >>> config.tunables().overflowShift()) / 2;
        if (useReserve) {
            overflow *= 3;
        }
        return over < overflow ? ArcArithmetic.Overflow.SOME : ArcArithmetic.Overflow.SEVERE;
    }

    // ---- arc_reduce_target_size (C4382) ----

    /**
     * {@code arc_reduce_target_size(to_free)}'s new {@code arc_c}. zfs-2.2.0: unchanged at or below
     * {@code arc_c_min}; else reduced from {@code MIN(arc_c, asize)} by {@code to_free}, not below
     * {@code arc_c_min} (signed). With {@link QuirkFix#SHRINK_IMPROVEMENTS_16197}: reduced from
     * {@code MIN(arc_c, MAX(asize, arc_c_min))} by at most what lies above {@code arc_c_min}.
     *
     * @param config the configuration
     * @param c {@code arc_c}
     * @param asize {@code aggsum_value(&arc_size)}
     * @param toFree the request (s64 in 2.2.0, u64 with the fix; at least 0 here)
     * @return the new {@code arc_c}
     */
    public static long reducedTarget(ArcConfig config, long c, long asize, long toFree) {
        long cMin = config.cMin();
        if (Long.compareUnsigned(c, cMin) <= 0) {
            return c;
        }
        if (config.applies(QuirkFix.SHRINK_IMPROVEMENTS_16197)) {
            long from = ArcArithmetic.unsignedMin(c, ArcArithmetic.unsignedMax(asize, cMin));
            return from - ArcArithmetic.unsignedMin(toFree, from - cMin);
        }
        if (Long.compareUnsigned(asize, c) < 0) {
            toFree += c - asize;
        }
        return Math.max(c - toFree, cMin);
    }

    /**
     * Whether {@code arc_reduce_target_size} asks the evict zthr for a pass. zfs-2.2.0: whenever {@code arc_c} was
     * above {@code arc_c_min}, even if the size is within the new target (a pass then only adapts the
     * fractions). With {@link QuirkFix#SHRINK_IMPROVEMENTS_16197}: whenever the size exceeds the new target,
     * {@code arc_c_min} or not.
     *
     * @param config the configuration
     * @param oldC {@code arc_c} before
     * @param newC {@code arc_c} after
     * @param asize {@code aggsum_value(&arc_size)}
     * @return whether {@code arc_evict_needed} is set
     */
    public static boolean reduceWakesEvictor(ArcConfig config, long oldC, long newC, long asize) {
        if (config.applies(QuirkFix.SHRINK_IMPROVEMENTS_16197)) {
            return Long.compareUnsigned(asize, newC) > 0;
        }
        return Long.compareUnsigned(oldC, config.cMin()) > 0;
    }

    // ---- arc_reap_cb (C4607) ----

    /**
     * {@code arc_reap_cb}'s {@code to_free} when memory is short: zfs-2.2.0 {@code (can_free >> arc_shrink_shift)
     * - free} with {@code can_free = arc_c - arc_c_min}, or 0 (no reduction) unless {@code can_free > 0}; with
     * {@link QuirkFix#SHRINK_IMPROVEMENTS_16197} {@code (MAX(can_free, 0) >> arc_shrink_shift) - free}, so that
     * at {@code arc_c_min} it still asks for {@code -free}. The target is reduced only if the result is positive.
     *
     * @param config the configuration
     * @param c {@code arc_c}
     * @param free {@code arc_available_memory()} (s64)
     * @return {@code to_free} (s64)
     */
    public static long reapToFree(ArcConfig config, long c, long free) {
        long canFree = c - config.cMin();
        int shift = config.tunables().shrinkShift();
        if (config.applies(QuirkFix.SHRINK_IMPROVEMENTS_16197)) {
            return (Math.max(canFree, 0) >> shift) - free;
        }
        return canFree > 0 ? (canFree >> shift) - free : 0;
    }
}
