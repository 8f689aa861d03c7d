package org.arcref.explore;

import java.util.EnumMap;
import java.util.Map;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.Setting;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ZfsEngine;

/**
 * Every header setting of an oracle try ({@code arc explore --checks oracle}, {@code arc gen}) drawn over the range
 * that both the spec's validation ({@link ArcConfig}, {@link org.arcref.zfs.Tunables},
 * {@link ConformanceSettings}, {@link org.arcref.zfs.Zfs22Arc}) and the oracle's harness around arc.c accept, each
 * with {@link Draws#edged} (its least and greatest value and the edges named below weighted, every order of
 * magnitude reached, a typical part drawn most). A function of the generator's state only.
 *
 * <p>In this order (a range {@code [lo, hi]}, its typical part, further edges):
 * <ul>
 *   <li>{@code spa_maxblocksize}: {@code 2^k}, k in [9, 24] (512 B to 16 MiB), typically up to 8 KiB;</li>
 *   <li>{@code growth_window}: zfs-2.1.1, {@code 2^k}, k in [9, 25] (512 B to 32 MiB), edge
 *       {@code 2 * spa_maxblocksize}; the spec takes any value of the range but the harness derives
 *       {@code SPA_MAXBLOCKSHIFT} from it, so only powers of two; zfs-2.2.0, {@code 2 * spa_maxblocksize}, as its
 *       harness requires (2.2's arc.c grows within {@code 2 * SPA_MAXBLOCKSIZE});</li>
 *   <li>{@code arc_c_min}: [growth_window, 2^61 - 1], typically up to growth_window + 4 blocks of
 *       {@code spa_maxblocksize}, edges twice growth_window and growth_window + one block;
 *       {@code arc_c_max}: [arc_c_min, 2^61 - 1], typically up to 4 arc_c_min, edges arc_c_min + one block and twice
 *       arc_c_min; {@code arc_sys_free}: [0, 2^61 - 1], typically up to 4 arc_c_max, edges arc_c_min and arc_c_max
 *       (2^61 - 1 is {@code Long.MAX_VALUE / 4}, the spec's greatest);</li>
 *   <li>{@code hz}: [16, 10^6], typically up to 2000, edges 17, 31–33, 47, 48, 100, 250, 256, 300, 999–1001, 1024
 *       and 999,983 (most divide neither 1000 nor 10^9; at 16–31 {@code ARC_MINTIME = hz >> 4} is one tick);</li>
 *   <li>{@code zfs_multilist_num_sublists}: [1, 1024], typically up to 8, edges 2 to 8 and 1023;</li>
 *   <li>{@code random_seed}: one in four 0, -1, the least or the greatest long, else any long;
 *       {@code evictor_runs_after_each_operation}: either;</li>
 *   <li>zfs-2.1.1: {@code arc_p_min_shift} [1, 63], typically up to 8, edge 4;</li>
 *   <li>{@code arc_shrink_shift} [1, 63], typically up to 10, edge 7; {@code arc_no_grow_shift}
 *       [0, arc_shrink_shift - 1], typically up to 8, edge 5; {@code arc_grow_retry} [0, 86400] s, typically up to
 *       10, edges 1 and 5; {@code zfs_arc_overflow_shift} [0, 63], typically up to 10, edge 8;
 *       {@code zfs_arc_eviction_pct} [0, 100000], typically up to 300, edges 1, 99–101, 200;
 *       {@code zfs_arc_evict_batch_limit} [1, 2^20], typically up to 16, edges 2 and 10;</li>
 *   <li>zfs-2.1.1: {@code zfs_arc_p_dampener_disable}: either;</li>
 *   <li>{@code arc_min_prefetch_ms} [0, 86,400,000], typically up to 3000, edges 1, 999–1001;
 *       {@code arc_min_prescient_prefetch_ms} the same range, typically up to 8000, edges 1, 5999–6001;</li>
 *   <li>{@code zfs_abd_scatter_enabled}: either; zfs-2.1.1: {@code zfs_abd_scatter_min_size} [0, 2^31 - 1],
 *       typically up to 8192, edges 1, 511–513, 1535–1537, 4095–4097 (the page), {@code spa_maxblocksize} and one
 *       more; zfs-2.2.0: 1536, the only value its harness accepts ({@code static} in 2.2's abd_os.c);</li>
 *   <li>zfs-2.2.0: {@code spa_old_maxblocksize}: {@code 2^k}, k in [9, 24], typically up to 4 KiB, edge 128 KiB;
 *       {@code zfs_arc_meta_balance} [100, 2^31 - 1], typically up to 1000, edges 101 and 500: the spec takes 1 and
 *       more, but 2.2.11's arc.c asserts {@code down <= frac} at the end of {@code arc_evict_adj}, which
 *       {@code down * 100 / balance} breaks for a balance below 100, and the oracle's libzpool is built with its
 *       ASSERTs on (2.2.0's and 2.2.11's tries are the same);</li>
 *   <li>{@code arc_free_memory}: half the tries 2^61 - 1 (no pressure); the others [0, 2^63 - 1], typically up to
 *       2 (arc_sys_free + arc_c_max), edges around arc_sys_free (minus one, itself, plus one, half, half plus one)
 *       and arc_sys_free plus {@code arc_c_min} or {@code arc_c_max >> arc_no_grow_shift}.</li>
 * </ul>
 */
final class RandomSettings {

    /** The spec's greatest size setting: {@code Long.MAX_VALUE / 4}. */
    static final long MAX_SIZE = Long.MAX_VALUE / 4;
    /** The greatest prefetch lifetime the spec takes: a day in milliseconds. */
    static final long MAX_LIFETIME_MS = 86_400_000;

    private RandomSettings() {
    }

    /**
     * @param engine the engine whose settings are drawn
     * @param r the generator
     * @return every setting of the engine, drawn; no quirk fixes
     */
    static ConformanceSettings draw(ZfsEngine engine, SplitMix64 r) {
        boolean v21 = engine == ZfsEngine.V2_1_1;
        Map<Setting, Long> s = new EnumMap<>(Setting.class);
        int blockShift = (int) Draws.edged(r, 9, 24, 13);
        long maxBlock = 1L << blockShift;
        s.put(Setting.SPA_MAXBLOCKSIZE, maxBlock);
        long window = v21 ? 1L << Draws.edged(r, 9, 25, blockShift + 1, blockShift + 1) : 2 * maxBlock;
        s.put(Setting.GROWTH_WINDOW, window);
        long cMin = Draws.edged(r, window, MAX_SIZE, window + 4 * maxBlock, 2 * window, window + maxBlock);
        long cMax = Draws.edged(r, cMin, MAX_SIZE, 4 * cMin, cMin + maxBlock, 2 * cMin);
        long sysFree = Draws.edged(r, 0, MAX_SIZE, 4 * cMax, cMin, cMax);
        s.put(Setting.ARC_C_MIN, cMin);
        s.put(Setting.ARC_C_MAX, cMax);
        s.put(Setting.ARC_SYS_FREE, sysFree);
        s.put(Setting.HZ, Draws.edged(r, 16, 1_000_000, 2000, 17, 31, 32, 33, 47, 48, 100, 250, 256, 300, 999, 1000,
                1001, 1024, 999_983));
        s.put(Setting.SUBLISTS, Draws.edged(r, 1, 1024, 8, 2, 3, 4, 5, 6, 7, 8, 1023));
        s.put(Setting.RANDOM_SEED, r.nextIndex(4) == 0 ? Draws.pick(r, 0, -1, Long.MIN_VALUE, Long.MAX_VALUE)
                : r.nextLong());
        s.put(Setting.EVICTOR_RUNS_AFTER_EACH_OPERATION, (long) r.nextIndex(2));
        if (v21) {
            s.put(Setting.ARC_P_MIN_SHIFT, Draws.edged(r, 1, 63, 8, 4));
        }
        long shrinkShift = Draws.edged(r, 1, 63, 10, 7);
        long noGrowShift = Draws.edged(r, 0, shrinkShift - 1, 8, 5);
        s.put(Setting.ARC_SHRINK_SHIFT, shrinkShift);
        s.put(Setting.ARC_NO_GROW_SHIFT, noGrowShift);
        s.put(Setting.ARC_GROW_RETRY, Draws.edged(r, 0, 86_400, 10, 1, 5));
        s.put(Setting.ZFS_ARC_OVERFLOW_SHIFT, Draws.edged(r, 0, 63, 10, 8));
        s.put(Setting.ZFS_ARC_EVICTION_PCT, Draws.edged(r, 0, 100_000, 300, 1, 99, 100, 101, 200));
        s.put(Setting.ZFS_ARC_EVICT_BATCH_LIMIT, Draws.edged(r, 1, 1 << 20, 16, 2, 10));
        if (v21) {
            s.put(Setting.ZFS_ARC_P_DAMPENER_DISABLE, (long) r.nextIndex(2));
        }
        s.put(Setting.ARC_MIN_PREFETCH_MS, Draws.edged(r, 0, MAX_LIFETIME_MS, 3000, 1, 999, 1000, 1001));
        s.put(Setting.ARC_MIN_PRESCIENT_PREFETCH_MS, Draws.edged(r, 0, MAX_LIFETIME_MS, 8000, 1, 5999, 6000, 6001));
        s.put(Setting.ZFS_ABD_SCATTER_ENABLED, (long) r.nextIndex(2));
        s.put(Setting.ZFS_ABD_SCATTER_MIN_SIZE, v21 ? Draws.edged(r, 0, Integer.MAX_VALUE, 8192, 1, 511, 512, 513,
                1535, 1536, 1537, 4095, 4096, 4097, maxBlock, maxBlock + 1) : 1536);
        if (!v21) {
            s.put(Setting.SPA_OLD_MAXBLOCKSIZE, 1L << Draws.edged(r, 9, 24, 12, 17));
            s.put(Setting.ZFS_ARC_META_BALANCE, Draws.edged(r, 100, Integer.MAX_VALUE, 1000, 101, 500));
        }
        s.put(Setting.ARC_FREE_MEMORY, r.nextIndex(2) == 0 ? MAX_SIZE : Draws.edged(r, 0, Long.MAX_VALUE,
                2 * (sysFree + cMax), sysFree - 1, sysFree, sysFree + 1, sysFree / 2, sysFree / 2 + 1, sysFree + cMin,
                sysFree + (cMax >> noGrowShift)));
        return ConformanceSettings.defaults(engine).with(s);
    }
}
