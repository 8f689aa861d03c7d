package org.arcref.zfs;

import org.arcref.random.SplitMix64;

/**
 * The policy arithmetic of the zfs-2.1.1 ARC, written once: pure functions of plain values that both the sequential
 * spec ({@link ZfsArc}) and the concurrent ARC ({@code org.arcref.arc.ConcurrentArc}) call. Each function is named
 * for the ZFS function whose arithmetic it is, and the functions stand in the order of arc.c, so that the class
 * reads top-down beside it. Every {@link QuirkFix} switch is here and nowhere else.
 *
 * <p>The callers keep their state machines and plumbing (fields or atomics and aggsums, lists, locks, waiters):
 * they read the values, call the function and store what it returns, each in its own way. Where ZFS reads
 * {@code arc_size} through an aggsum bound, the caller passes the bound (the spec passes its exact size).
 *
 * <p>Arithmetic mirrors the C types: {@code arc_c}, {@code arc_p}, sizes and {@code to_free}'s operands are u64
 * compared with {@link Long#compareUnsigned}; eviction targets, {@code arc_available_memory()} and the overflow
 * excess are s64; {@code arc_adapt}'s {@code bytes} and {@code mult} are {@code int}. The argument rules the
 * operations share are in {@link ArcArguments}.
 */
public final class ArcArithmetic {

    private ArcArithmetic() {
    }

    // ---- arc_change_state (arc.c:2378) ----

    /**
     * The bytes a header contributes to the size of its state, as {@code arc_change_state} adds them up
     * (arc.c:2454-2485): the logical size for a ghost; otherwise its data ({@code b_pabd}) plus one private copy per
     * buffer that does not share that data. Each hold is one buffer.
     *
     * @param state {@code b_state}
     * @param size the logical size
     * @param hasData {@code b_pabd != NULL}
     * @param sharedData {@code ARC_FLAG_SHARED_DATA}
     * @param buffers {@code b_bufcnt}
     * @return the bytes
     */
    public static long accountedSize(ArcState state, long size, boolean hasData, boolean sharedData, int buffers) {
        if (state.isGhost()) {
            return size;
        }
        return (hasData ? size : 0) + (buffers - (sharedData ? 1 : 0)) * size;
    }

    // ---- arc_evict_hdr (arc.c:3877) ----

    /**
     * {@code arc_evict_hdr}'s minimum lifetime of a prefetched header: it is skipped ({@code evict_skip}) while
     * younger than {@code arc_min_prefetch_ms}, or {@code arc_min_prescient_prefetch_ms} if prescient.
     *
     * @param config the configuration (clock rate and tunables)
     * @param prefetch {@code ARC_FLAG_PREFETCH}
     * @param prescientPrefetch {@code ARC_FLAG_PRESCIENT_PREFETCH}
     * @param lastAccess {@code b_arc_access}
     * @param now {@code ddi_get_lbolt()}
     * @return whether eviction skips the header
     */
    public static boolean evictSkipsPrefetch(ArcConfig config, boolean prefetch, boolean prescientPrefetch,
            long lastAccess, long now) {
        Tunables tunables = config.tunables();
        long minLifetime = prescientPrefetch ? tunables.minPrescientPrefetchMs() : tunables.minPrefetchMs();
        return prefetch && now - lastAccess < config.msToTicks(minLifetime);
    }

    /**
     * @param state the state of a cached header {@code arc_evict_hdr} evicts: MRU or MFU
     * @return the ghost state its header moves to
     */
    public static ArcState ghostOf(ArcState state) {
        return state == ArcState.MRU ? ArcState.MRU_GHOST : ArcState.MFU_GHOST;
    }

    // ---- arc_set_need_free (arc.c:4015) ----

    /**
     * {@code arc_set_need_free}'s value of {@code arc_need_free} (fact sheet d.4): with {@code remaining =
     * arc_free_memory() - arc_sys_free / 2} (s64), {@code MAX(-remaining, 0)} when no eviction waiter is queued,
     * else {@code MAX(-remaining, (int64_t)(tail->aew_count - arc_evict_count))}.
     *
     * @param freeMemory {@code arc_free_memory()}
     * @param sysFree {@code arc_sys_free}
     * @param waiterQueued whether {@code arc_evict_waiters} is non-empty
     * @param tailCount the tail waiter's {@code aew_count}; ignored if no waiter is queued
     * @param evictCount {@code arc_evict_count}
     * @return {@code arc_need_free}
     */
    public static long needFree(long freeMemory, long sysFree, boolean waiterQueued, long tailCount,
            long evictCount) {
        long remaining = freeMemory - sysFree / 2;
        return waiterQueued ? Math.max(-remaining, tailCount - evictCount) : Math.max(-remaining, 0);
    }

    // ---- arc_evict_state (arc.c:4167) ----

    /** One visit of {@code arc_evict_state_impl} to a sublist, by the caller's plumbing. */
    @FunctionalInterface
    public interface SublistEviction {
        /**
         * @param sublist the sublist to evict from
         * @param bytes the bytes still wanted
         * @return the bytes evicted (logical, ghosts included)
         */
        long evict(int sublist, long bytes);
    }

    /**
     * The scan order of {@code arc_evict_state}: rounds over all sublists, each starting at
     * {@code multilist_get_random_index} and wrapping around, until {@code bytes} (u64) are evicted; a round that
     * evicts nothing ends the scan and counts {@code evict_not_enough}. The markers are the caller's.
     *
     * @param random the ARC's generator ({@link #randomIndex})
     * @param sublists the number of sublists, at least 1
     * @param bytes the bytes wanted
     * @param visit evicts from one sublist
     * @param notEnough called when a round evicted nothing
     * @return the bytes evicted
     */
    public static long evictState(SplitMix64 random, int sublists, long bytes, SublistEviction visit,
            Runnable notEnough) {
        long total = 0;
        while (Long.compareUnsigned(total, bytes) < 0) {
            int idx = randomIndex(random, sublists);
            long scan = 0;
            for (int i = 0; i < sublists && Long.compareUnsigned(total, bytes) < 0; i++) {
                long e = visit.evict(idx, bytes - total);
                scan += e;
                total += e;
                idx = idx + 1 >= sublists ? 0 : idx + 1;
            }
            if (scan == 0) {
                notEnough.run();
                break;
            }
        }
        return total;
    }

    // ---- arc_evict_impl (arc.c:4326) and arc_evict (arc.c:4570) ----

    /**
     * {@code arc_evict_impl}'s request: a non-positive (s64) target means skip.
     *
     * @param target the s64 target of {@code arc_evict}
     * @param evictable the state's {@code arcs_esize}
     * @return the bytes to ask {@code arc_evict_state} for, {@code MIN(evictable, target)}, or 0 to skip
     */
    public static long evictImplBytes(long target, long evictable) {
        return target > 0 && evictable > 0 ? Math.min(evictable, target) : 0;
    }

    /**
     * {@code arc_evict}'s MRU target: {@code MIN(size - arc_c, anon + mru - arc_p)}, s64 (data only, no
     * {@code ameta}).
     *
     * @param size {@code arc_size} as {@code arc_evict} reads it ({@code aggsum_value})
     * @param c {@code arc_c}
     * @param p {@code arc_p}
     * @param anonSize {@code arc_anon->arcs_size}
     * @param mruSize {@code arc_mru->arcs_size}
     * @return the target
     */
    public static long evictTargetMru(long size, long c, long p, long anonSize, long mruSize) {
        return Math.min(size - c, anonSize + mruSize - p);
    }

    /**
     * @param size {@code arc_size} after the MRU eviction ({@code aggsum_value})
     * @param c {@code arc_c}
     * @return {@code arc_evict}'s MFU target, {@code size - arc_c}, s64
     */
    public static long evictTargetMfu(long size, long c) {
        return size - c;
    }

    /**
     * @param mruSize {@code arc_mru->arcs_size}
     * @param mruGhostSize {@code arc_mru_ghost->arcs_size}
     * @param c {@code arc_c}
     * @return {@code arc_evict}'s MRU ghost target, {@code mru + mru_ghost - arc_c}, s64
     */
    public static long evictTargetMruGhost(long mruSize, long mruGhostSize, long c) {
        return mruSize + mruGhostSize - c;
    }

    /**
     * @param mruGhostSize {@code arc_mru_ghost->arcs_size}
     * @param mfuGhostSize {@code arc_mfu_ghost->arcs_size}
     * @param c {@code arc_c}
     * @return {@code arc_evict}'s MFU ghost target, {@code mru_ghost + mfu_ghost - arc_c}, s64
     */
    public static long evictTargetMfuGhost(long mruGhostSize, long mfuGhostSize, long c) {
        return mruGhostSize + mfuGhostSize - c;
    }

    // ---- arc_reduce_target_size (arc.c:4749) ----

    /**
     * Whether {@code arc_reduce_target_size} takes its first branch, lowering {@code arc_c} by {@code to_free}:
     * {@code c > to_free && c - to_free > arc_c_min} (u64), where {@code c = MIN(arc_c, aggsum_value(&arc_size))}.
     * Otherwise {@code arc_c} becomes {@code arc_c_min}.
     *
     * @param config the configuration ({@code arc_c_min})
     * @param c {@code MIN(arc_c, arc_size)} ({@link #unsignedMin})
     * @param toFree {@code to_free}
     * @return whether {@code arc_c = c - to_free}
     */
    public static boolean reduceLowersTarget(ArcConfig config, long c, long toFree) {
        return Long.compareUnsigned(c, toFree) > 0 && Long.compareUnsigned(c - toFree, config.cMin()) > 0;
    }

    /**
     * {@code arc_reduce_target_size}'s first branch: {@code arc_p} decays by {@code arc_p >> arc_shrink_shift} and,
     * if still above the new {@code arc_c}, becomes half of it.
     *
     * @param config the configuration
     * @param p {@code arc_p}
     * @param newC the new {@code arc_c}
     * @return the new {@code arc_p}
     */
    public static long reducedMruTarget(ArcConfig config, long p, long newC) {
        long q = p - (p >>> config.tunables().shrinkShift());
        return Long.compareUnsigned(q, newC) > 0 ? newC >>> 1 : q;
    }

    /**
     * {@code arc_reduce_target_size}'s {@code else} branch, {@code arc_c = arc_c_min}: 2.1.1 leaves {@code arc_p}
     * alone (quirk O2); with {@link QuirkFix#SHRINK_CLAMPS_ARC_P_OURS} an {@code arc_p} above {@code arc_c} becomes
     * half of it.
     *
     * @param config the configuration
     * @param p {@code arc_p}
     * @return the new {@code arc_p}
     */
    public static long flooredMruTarget(ArcConfig config, long p) {
        long c = config.cMin();
        return config.applies(QuirkFix.SHRINK_CLAMPS_ARC_P_OURS) && Long.compareUnsigned(p, c) > 0 ? c >>> 1 : p;
    }

    // ---- arc_reap_cb_check (arc.c:4927) and arc_reap_cb (arc.c:4974) ----

    /**
     * {@code arc_reap_cb_check}'s update of {@code arc_no_grow} when memory is not short
     * ({@code free >= 0}): set while free memory is below {@code arc_c >> arc_no_grow_shift}, cleared once the
     * clock reaches {@code arc_growtime}, else unchanged.
     *
     * @param config the configuration
     * @param free {@code arc_available_memory()}, at least 0
     * @param c {@code arc_c}
     * @param now {@code gethrtime()}, here the logical clock
     * @param growTime {@code arc_growtime}
     * @param noGrow {@code arc_no_grow}
     * @return the new {@code arc_no_grow}
     */
    public static boolean reapNoGrow(ArcConfig config, long free, long c, long now, long growTime, boolean noGrow) {
        if (Long.compareUnsigned(free, c >>> config.tunables().noGrowShift()) < 0) {
            return true;
        }
        return now >= growTime ? false : noGrow;
    }

    /**
     * @param config the configuration
     * @param now the logical clock
     * @return {@code arc_growtime} set by {@code arc_reap_cb_check} when memory is short: {@code arc_grow_retry}
     *     seconds from now
     */
    public static long reapGrowTime(ArcConfig config, long now) {
        return now + (long) config.tunables().growRetrySeconds() * config.hz();
    }

    /**
     * {@code arc_reap_cb}'s {@code to_free} when memory is short ({@code free < 0}): {@code (arc_c >>
     * arc_shrink_shift) - free}; with {@link QuirkFix#REAP_ABOVE_C_MIN_13794}, {@code (can_free >>
     * arc_shrink_shift) - free} where {@code can_free = arc_c - arc_c_min}, or 0 unless {@code can_free > 0}. s64;
     * the target is reduced only if it is positive.
     *
     * @param config the configuration
     * @param c {@code arc_c}
     * @param free {@code arc_available_memory()}, negative
     * @return {@code to_free}
     */
    public static long reapToFree(ArcConfig config, long c, long free) {
        int shift = config.tunables().shrinkShift();
        if (config.applies(QuirkFix.REAP_ABOVE_C_MIN_13794)) {
            long canFree = c - config.cMin();
            return canFree > 0 ? (canFree >>> shift) - free : 0;
        }
        return (c >>> shift) - free;
    }

    // ---- arc_adapt (arc.c:5068) ----

    /**
     * {@code arc_adapt}'s move of {@code arc_p} on a ghost hit: toward MRU on an MRU ghost hit,
     * {@code MIN(arc_c - arc_p_min, arc_p + bytes * mult)}; toward MFU on an MFU ghost hit,
     * {@code MAX(arc_p_min, arc_p - MIN(bytes * mult, arc_p))} (u64), with {@code arc_p_min = arc_c >>
     * arc_p_min_shift} and {@code mult} the ratio of the other ghost list's size to this one's
     * ({@link #dampened}, {@link #ghostIncrement}).
     *
     * @param config the configuration
     * @param ghost the ghost state hit: {@link ArcState#MRU_GHOST} or {@link ArcState#MFU_GHOST}
     * @param bytes {@code bytes}, the header's size as an {@code int}
     * @param c {@code arc_c}
     * @param p {@code arc_p}
     * @param mruGhostSize {@code mrug_size}
     * @param mfuGhostSize {@code mfug_size}
     * @return the new {@code arc_p}
     */
    public static long adaptMruTarget(ArcConfig config, ArcState ghost, int bytes, long c, long p,
            long mruGhostSize, long mfuGhostSize) {
        long pMin = c >>> config.tunables().pMinShift();
        if (ghost == ArcState.MRU_GHOST) {
            int mult = dampened(config, mruGhostSize >= mfuGhostSize ? 1 : mfuGhostSize / mruGhostSize);
            return unsignedMin(c - pMin, p + ghostIncrement(config, QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094, bytes,
                    mult));
        }
        int mult = dampened(config, mfuGhostSize >= mruGhostSize ? 1 : mruGhostSize / mfuGhostSize);
        return unsignedMax(pMin, p - unsignedMin(ghostIncrement(config, QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS, bytes,
                mult), p));
    }

    /**
     * {@code mult} of {@code arc_adapt}: the s64 ghost-size quotient assigned to an {@code int} (truncated), then
     * dampened to 10 unless {@code zfs_arc_p_dampener_disable}.
     */
    private static int dampened(ArcConfig config, long quotient) {
        int mult = (int) quotient;
        return config.tunables().pDampenerDisable() ? mult : Math.min(mult, 10);
    }

    /**
     * {@code bytes * mult} of {@code arc_adapt}, as the u64 its branch adds or subtracts: in 2.1.1 a 32-bit
     * {@code int} product that may wrap, sign-extended (quirk O1 and its MRU twin); with the branch's fix
     * ({@link QuirkFix#ADAPT_MRU_64BIT_MULTIPLY_14094} for the MRU-ghost branch,
     * {@link QuirkFix#ADAPT_MFU_64BIT_MULTIPLY_OURS} for the MFU-ghost one) {@code (uint64_t)bytes * mult}, where
     * the {@code int} {@code mult} converts to u64 (sign-extended) first.
     */
    private static long ghostIncrement(ArcConfig config, QuirkFix fix, int bytes, int mult) {
        return config.applies(fix) ? (long) bytes * (long) mult : bytes * mult;
    }

    /**
     * Whether {@code arc_adapt} may grow {@code arc_c} at all: memory is not short ({@code arc_reclaim_needed()}
     * is false), {@code arc_no_grow} is not set and {@code arc_c < arc_c_max} (u64).
     *
     * @param config the configuration
     * @param availableMemory {@code arc_available_memory()}
     * @param noGrow {@code arc_no_grow}
     * @param c {@code arc_c}
     * @return whether to go on to {@link #adaptWithinGrowthWindow}
     */
    public static boolean adaptMayGrow(ArcConfig config, long availableMemory, boolean noGrow, long c) {
        return availableMemory >= 0 && !noGrow && Long.compareUnsigned(c, config.cMax()) < 0;
    }

    /**
     * @param config the configuration
     * @param c {@code arc_c}
     * @param sizeUpperBound {@code aggsum_upper_bound(&arc_size)}
     * @return whether the size is within {@code 2ULL << SPA_MAXBLOCKSHIFT} of {@code arc_c} (u64), so that
     *     {@code arc_adapt} grows {@code arc_c}
     */
    public static boolean adaptWithinGrowthWindow(ArcConfig config, long c, long sizeUpperBound) {
        return Long.compareUnsigned(sizeUpperBound, c - config.growthWindow()) >= 0;
    }

    /**
     * @param config the configuration
     * @param c {@code arc_c}
     * @param bytes {@code bytes}
     * @return whether {@code arc_c + bytes > arc_c_max} (u64): {@code arc_adapt} then sets {@code arc_c} to
     *     {@code arc_c_max} and does not grow {@code arc_p}
     */
    public static boolean adaptGrowthClamped(ArcConfig config, long c, int bytes) {
        return Long.compareUnsigned(c + bytes, config.cMax()) > 0;
    }

    /**
     * @param config the configuration
     * @param c {@code arc_c}
     * @param bytes {@code bytes}
     * @return {@code arc_adapt}'s grown {@code arc_c}: {@code arc_c + bytes}, or {@code arc_c_max} if that is more
     */
    public static long adaptGrownTarget(ArcConfig config, long c, int bytes) {
        return adaptGrowthClamped(config, c, bytes) ? config.cMax() : c + bytes;
    }

    /**
     * The quirk switch of {@link QuirkFix#ARC_P_GROWTH_CAP_14137}, asked by both places that grow {@code arc_p} for
     * anonymous data ({@code arc_adapt} and {@code arc_get_data_impl}): in 2.1.1 always true, so {@code arc_p} may
     * grow past {@code arc_c / 2}; with the fix only while {@code arc_p < arc_c >> 1} (u64).
     *
     * @param config the configuration
     * @param p {@code arc_p}
     * @param c {@code arc_c}
     * @return whether {@code arc_p} may grow
     */
    public static boolean pGrowthAllowed(ArcConfig config, long p, long c) {
        return !config.applies(QuirkFix.ARC_P_GROWTH_CAP_14137) || Long.compareUnsigned(p, c >>> 1) < 0;
    }

    // ---- arc_is_overflowing (arc.c:5139) ----

    /** {@code ARC_OVF_NONE}, {@code ARC_OVF_SOME}, {@code ARC_OVF_SEVERE}. */
    public enum Overflow { NONE, SOME, SEVERE }

    /**
     * {@code arc_is_overflowing(use_reserve)}, 2.1.1 levels (fact sheet d.2): {@code overflow = MAX(SPA_MAXBLOCKSIZE,
     * arc_c >> zfs_arc_overflow_shift)}; the excess {@code size - arc_c - overflow / 2} (s64) is NONE below 0, SOME
     * below {@code overflow} with the reserve or {@code overflow / 2} without, SEVERE above.
     *
     * @param config the configuration
     * @param c {@code arc_c}
     * @param sizeLowerBound {@code aggsum_lower_bound(&arc_size)}
     * @param useReserve {@code use_reserve}
     * @return the level
     */
    public static Overflow overflowLevel(ArcConfig config, long c, long sizeLowerBound, boolean useReserve) {
        long overflow = unsignedMax(config.maxBlockSize(), c >>> config.tunables().overflowShift());
        long over = sizeLowerBound - c - overflow / 2;
        if (!useReserve) {
            overflow /= 2;
        }
        return over < 0 ? Overflow.NONE : over < overflow ? Overflow.SOME : Overflow.SEVERE;
    }

    // ---- arc_wait_for_eviction (arc.c:5199) ----

    /**
     * The count an eviction waiter waits for, {@code aew_count = MAX(last, arc_evict_count) + amount}
     * (arc.c:5243; the #11397 fix of #11285), where {@code last} is the tail waiter's count, or 0 with none queued.
     *
     * @param last the tail waiter's {@code aew_count}, or 0
     * @param evictCount {@code arc_evict_count}
     * @param amount what the allocation waits for
     * @return {@code aew_count}, u64
     */
    public static long waiterCount(long last, long evictCount, long amount) {
        return unsignedMax(last, evictCount) + amount;
    }

    // ---- arc_get_data_impl (arc.c:5277) ----

    /**
     * @param config the configuration
     * @param size the allocation
     * @return the amount {@code arc_get_data_impl} passes to {@code arc_wait_for_eviction}: {@code size *
     *     zfs_arc_eviction_pct / 100}
     */
    public static long evictionWaitAmount(ArcConfig config, long size) {
        return size * config.tunables().evictionPct() / 100;
    }

    /**
     * The {@code arc_p} growth predicate of {@code arc_get_data_impl} for data of an anonymous header, after the
     * size test ({@code aggsum_upper_bound(&arc_size) < arc_c}, which the caller makes): anon plus MRU exceed
     * {@code arc_p} (u64) and {@link #pGrowthAllowed}. {@code arc_p} then becomes {@link #grownMruTarget}.
     *
     * @param config the configuration
     * @param anonSize {@code arc_anon->arcs_size}
     * @param mruSize {@code arc_mru->arcs_size}
     * @param p {@code arc_p}
     * @param c {@code arc_c}
     * @return whether {@code arc_p} grows
     */
    public static boolean anonDataGrowsMruTarget(ArcConfig config, long anonSize, long mruSize, long p, long c) {
        return Long.compareUnsigned(anonSize + mruSize, p) > 0 && pGrowthAllowed(config, p, c);
    }

    /**
     * @param p {@code arc_p}
     * @param c {@code arc_c}
     * @param size the allocation
     * @return {@code arc_get_data_impl}'s grown {@code arc_p}: {@code MIN(arc_c, arc_p + size)} (u64)
     */
    public static long grownMruTarget(long p, long c, long size) {
        return unsignedMin(c, p + size);
    }

    // ---- arc_access (arc.c:5398) ----

    /**
     * What {@code arc_access} does to a header: every transition of fact sheet d.17, as a constant.
     */
    public enum Access {
        /** anon: the first access (a miss's I/O done, a write done) puts the header in MRU. */
        ANON_TO_MRU(ArcState.MRU, true, false, null),
        /** MRU, prefetched, unreferenced: a prefetch hit; only the access time moves. */
        MRU_PREFETCH(ArcState.MRU, true, false, null),
        /** MRU, prefetched, referenced: a demand hit on a prefetch clears the prefetch flags and counts. */
        MRU_PREFETCH_REFERENCED(ArcState.MRU, true, true, ArcStat.MRU_HITS),
        /** MRU within {@code ARC_MINTIME} of the last access: counted, nothing moves. */
        MRU_HIT(ArcState.MRU, false, false, ArcStat.MRU_HITS),
        /** MRU after {@code ARC_MINTIME}: to MFU. */
        MRU_TO_MFU(ArcState.MFU, true, false, ArcStat.MRU_HITS),
        /** MRU ghost: to MFU. */
        MRU_GHOST_TO_MFU(ArcState.MFU, true, false, ArcStat.MRU_GHOST_HITS),
        /** MRU ghost, prefetched, unreferenced: back to MRU. */
        MRU_GHOST_PREFETCH_TO_MRU(ArcState.MRU, true, false, ArcStat.MRU_GHOST_HITS),
        /** MRU ghost, prefetched, referenced: back to MRU, the prefetch flags cleared. */
        MRU_GHOST_PREFETCH_REFERENCED_TO_MRU(ArcState.MRU, true, true, ArcStat.MRU_GHOST_HITS),
        /** MFU: counted, the access time moves. */
        MFU_HIT(ArcState.MFU, true, false, ArcStat.MFU_HITS),
        /** MFU ghost: to MFU. */
        MFU_GHOST_TO_MFU(ArcState.MFU, true, false, ArcStat.MFU_GHOST_HITS),
        /** MFU ghost, prefetched: to MRU (the flags stay). */
        MFU_GHOST_PREFETCH_TO_MRU(ArcState.MRU, true, false, ArcStat.MFU_GHOST_HITS);

        private final ArcState to;
        private final boolean touches;
        private final boolean clearsPrefetch;
        private final ArcStat hit;

        Access(ArcState to, boolean touches, boolean clearsPrefetch, ArcStat hit) {
            this.to = to;
            this.touches = touches;
            this.clearsPrefetch = clearsPrefetch;
            this.hit = hit;
        }

        /** @return the state the header is in afterwards; a change of state is {@code arc_change_state} */
        public ArcState to() {
            return to;
        }

        /** @return whether {@code b_arc_access} becomes the current tick */
        public boolean touches() {
            return touches;
        }

        /** @return whether {@code ARC_FLAG_PREFETCH} and {@code ARC_FLAG_PRESCIENT_PREFETCH} are cleared */
        public boolean clearsPrefetch() {
            return clearsPrefetch;
        }

        /** @return the arcstat counted, or null for none */
        public ArcStat hit() {
            return hit;
        }
    }

    /**
     * {@code arc_access}'s decision (fact sheet d.17).
     *
     * @param config the configuration ({@code ARC_MINTIME})
     * @param state {@code b_state}
     * @param prefetched {@code HDR_PREFETCH(hdr) || HDR_PRESCIENT_PREFETCH(hdr)}
     * @param referenced {@code zfs_refcount_count(&hdr->b_l1hdr.b_refcnt) > 0}
     * @param lastAccess {@code b_arc_access}
     * @param now {@code ddi_get_lbolt()}
     * @return the transition
     */
    public static Access access(ArcConfig config, ArcState state, boolean prefetched, boolean referenced,
            long lastAccess, long now) {
        return switch (state) {
            case ANON -> Access.ANON_TO_MRU;
            case MRU -> prefetched ? (referenced ? Access.MRU_PREFETCH_REFERENCED : Access.MRU_PREFETCH)
                    : now > lastAccess + config.minTimeTicks() ? Access.MRU_TO_MFU : Access.MRU_HIT;
            case MRU_GHOST -> !prefetched ? Access.MRU_GHOST_TO_MFU
                    : referenced ? Access.MRU_GHOST_PREFETCH_REFERENCED_TO_MRU : Access.MRU_GHOST_PREFETCH_TO_MRU;
            case MFU -> Access.MFU_HIT;
            case MFU_GHOST -> prefetched ? Access.MFU_GHOST_PREFETCH_TO_MRU : Access.MFU_GHOST_TO_MFU;
        };
    }

    // ---- arc_state_multilist_index_func (arc.c:7452) and multilist_get_random_index (multilist.c) ----

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

    // ---- abd_alloc (abd.c:184) ----

    /**
     * Whether {@code abd_alloc} returns a linear ABD for {@code size} bytes of data (abd.c:184:
     * {@code !zfs_abd_scatter_enabled || abd_size_alloc_linear(size)}; Linux abd_os.c:633:
     * {@code size < zfs_abd_scatter_min_size}). Only a linear header ABD can be shared with a buffer
     * ({@code arc_buf_alloc_impl}, arc.c:2791-2795; a scatter ABD that happens to be one chunk is a "linear page"
     * ABD, which may not be shared either).
     *
     * @param tunables the tunables ({@code zfs_abd_scatter_enabled}, {@code zfs_abd_scatter_min_size})
     * @param size the allocation in bytes
     * @return {@code true} if the ABD is linear
     */
    public static boolean linearAbd(Tunables tunables, long size) {
        return !tunables.abdScatterEnabled() || size < tunables.abdScatterMinSize();
    }

    // ---- arc_write_ready (arc.c:6885) ----

    /**
     * Whether {@code arc_write_ready} gives an unencrypted, uncompressed written block header data of its own (a
     * copy of the writer's buffer, allocated with {@code ARC_HDR_DO_ADAPT | ARC_HDR_USE_RESERVE}) rather than
     * sharing the writer's buffer ({@code arc_share_buf}; {@code arc_can_share} always holds for such a block). In
     * 2.1.1 (arc.c:6885) it copies whenever {@code zfs_abd_scatter_enabled}; with
     * {@link QuirkFix#WRITE_SHARES_LINEAR_12425} only when {@code !abd_size_alloc_linear(size)}, that is when the
     * header's data would be a scatter ABD ({@link #linearAbd}).
     *
     * @param config the configuration
     * @param size {@code arc_buf_size(buf)}, the block's size in bytes
     * @return {@code true} if the header gets a copy, {@code false} if it shares the writer's buffer
     */
    public static boolean writeReadyCopies(ArcConfig config, long size) {
        if (config.applies(QuirkFix.WRITE_SHARES_LINEAR_12425)) {
            return !linearAbd(config.tunables(), size);
        }
        return config.tunables().abdScatterEnabled();
    }

    // ---- the C types ----

    /** @return {@code MIN(a, b)} of two u64 */
    public static long unsignedMin(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** @return {@code MAX(a, b)} of two u64 */
    public static long unsignedMax(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }
}
