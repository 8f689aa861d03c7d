package org.arcref.exhaustive;

import static org.arcref.conformance.ConformanceSettings.PLENTIFUL_MEMORY;

import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import java.util.Set;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.Tunables;

/**
 * What the exhaustive explorer explores: the spec's configuration, the free memory it starts with, the alphabet of
 * operations and the bounds (depth: operations from the empty ARC; states: distinct states kept). Immutable.
 *
 * @param config the spec's configuration
 * @param initialFreeMemory {@code arc_free_memory()} before the first {@code memory} operation
 * @param alphabet the operations tried in every state
 * @param maxDepth states at this depth are visited (checked) but not expanded; at least 0
 * @param maxStates the exploration stops once this many distinct states are known; at least 1
 */
public record ExhaustiveBounds(ArcConfig config, long initialFreeMemory, Alphabet alphabet, int maxDepth,
        long maxStates) {

    /** The tiny cache's block: the growth window and the smallest (or only) size. */
    public static final long BLOCK = 512;
    /**
     * The tiny cache's seed: 2 makes {@link org.arcref.differential.Lockstep#deterministicOptions} give
     * the concurrent ARC the exact {@code arc_p} growth compare and one hash lock (2048 would be created for every
     * replay, for nothing: one thread never contends).
     */
    public static final long SEED = 2;
    /** The tiny cache's {@code arc_sys_free}. */
    public static final long SYS_FREE = 1024;

    /** Validates the bounds. */
    public ExhaustiveBounds {
        if (config == null || alphabet == null) {
            throw new IllegalArgumentException("config and alphabet must not be null, were " + config + ", "
                    + alphabet);
        }
        if (initialFreeMemory < 0) {
            throw new IllegalArgumentException("initialFreeMemory must be at least 0, was " + initialFreeMemory);
        }
        if (maxDepth < 0) {
            throw new IllegalArgumentException("depth must be at least 0, was " + maxDepth);
        }
        if (maxStates < 1) {
            throw new IllegalArgumentException("maxStates must be at least 1, was " + maxStates);
        }
        for (long size : alphabet.sizes()) {
            if (size < ArcConfig.MIN_BLOCK_SIZE || size > config.maxBlockSize()
                    || size % ArcConfig.MIN_BLOCK_SIZE != 0) {
                throw new IllegalArgumentException("sizes must be multiples of 512 in [512, spa_maxblocksize="
                        + config.maxBlockSize() + "], was " + size);
            }
        }
    }

    /**
     * The tiny configuration of the CI run and the default of {@code arc explore --exhaustive}, chosen so that
     * every mechanism is a few operations away:
     * <ul>
     *   <li>blocks of 512 B (the growth window, and {@code SPA_MAXBLOCKSIZE} and the only size unless
     *       {@code twoSizes} adds 1 KiB blocks), {@code arc_c_min} and {@code arc_c_max} a few 512-byte blocks (one
     *       more lets {@code arc_adapt} grow {@code arc_c} once); an allocation that finds
     *       {@code SPA_MAXBLOCKSIZE} more than {@code arc_c} allocated, held or anonymous, overflows severely
     *       (an eviction waiter);</li>
     *   <li>{@code arc_sys_free} two blocks and free-memory levels
     *       {@link ConformanceSettings#PLENTIFUL_MEMORY} and 768 (below {@code arc_sys_free}: the reaper shrinks the target and sets {@code arc_no_grow}); with
     *       {@code lowMemory}, also 256 (below {@code arc_sys_free / 2}: waiter wakeups by count are deferred);</li>
     *   <li>{@code hz = 16}, so {@code ARC_MINTIME} is 1 tick; prefetch lifetimes 62 ms and 125 ms (1 and 2
     *       ticks), {@code arc_grow_retry} 0 s: ticks of 1 reach every timing threshold;</li>
     *   <li>shrinks of half a block (above {@code arc_c_min} once it grew) and 1 MiB (down to it);</li>
     *   <li>scatter ABDs on (the Linux default) with {@code zfs_abd_scatter_min_size} scaled down to the largest
     *       block: the largest blocks have scatter data, which every buffer copies, and with {@code twoSizes} the
     *       512 B blocks linear data, which a first buffer shares (1536 lies between 512 B and 2 KiB on Linux);
     *       written blocks get header data of their own whatever their size.</li>
     * </ul>
     *
     * @param keys the number of keys
     * @param sublists the sublists per multilist (1: every key in one sublist, the scan start has no choice)
     * @param evictorRunsAfterEachOperation whether the evict zthr runs to quiescence after each operation
     *     (otherwise it runs on {@code evict} or inline for a waiter)
     * @param cMinBlocks {@code arc_c_min} in blocks, at least 1
     * @param cMaxBlocks {@code arc_c_max} in blocks, at least {@code cMinBlocks}
     * @param lowMemory whether the memory levels include one below {@code arc_sys_free / 2}
     * @param twoSizes whether blocks are of 512 B and 1 KiB ({@code SPA_MAXBLOCKSIZE} 1 KiB) rather than 512 B
     * @param fixes the quirk fixes applied
     * @param maxDepth the depth bound
     * @param maxStates the state bound
     * @return the bounds
     */
    public static ExhaustiveBounds tiny(int keys, int sublists, boolean evictorRunsAfterEachOperation,
            int cMinBlocks, int cMaxBlocks, boolean lowMemory, boolean twoSizes, Set<QuirkFix> fixes, int maxDepth, long maxStates) {
        Tunables d = Tunables.defaults();
        long maxBlockSize = twoSizes ? 2 * BLOCK : BLOCK;
        Tunables tunables = new Tunables(d.pMinShift(), d.shrinkShift(), d.noGrowShift(), 0, d.overflowShift(),
                d.evictionPct(), d.evictBatchLimit(), d.pDampenerDisable(), 62, 125, d.abdScatterEnabled(),
                (int) maxBlockSize);
        ArcConfig config = new ArcConfig(cMinBlocks * BLOCK, cMaxBlocks * BLOCK, maxBlockSize,
                BLOCK, SYS_FREE, 16, sublists, SEED, evictorRunsAfterEachOperation, fixes, tunables);
        List<Long> memory = lowMemory ? List.of(PLENTIFUL_MEMORY, SYS_FREE - BLOCK / 2, SYS_FREE / 4)
                : List.of(PLENTIFUL_MEMORY, SYS_FREE - BLOCK / 2);
        Alphabet alphabet = new Alphabet(keys, twoSizes ? List.of(BLOCK, 2 * BLOCK) : List.of(BLOCK), List.of(1L), List.of(BLOCK / 2, 1L << 20), memory);
        return new ExhaustiveBounds(config, PLENTIFUL_MEMORY, alphabet, maxDepth, maxStates);
    }
}
