package org.arcref.explore;

import org.arcref.conformance.ConformanceSettings;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.Tunables;

/**
 * The sizes and amounts of a try's operations ({@link RandomScenario}, {@link Random22Scenario}): each key's block
 * size, and how many ticks a {@code tick}, how many bytes a {@code shrink} and how much free memory a {@code memory}
 * operation gives.
 */
sealed interface Magnitudes {

    /** @param key a block's key @return its size: a multiple of 512 in [512, {@code spa_maxblocksize}] */
    long sizeOf(long key);

    /** @param r the generator @return a {@code tick}'s ticks */
    long tick(SplitMix64 r);

    /** @param r the generator @return a {@code shrink}'s bytes */
    long shrink(SplitMix64 r);

    /** @param r the generator @return a {@code memory} operation's free bytes */
    long memory(SplitMix64 r);

    /**
     * The invariant and differential checks' magnitudes, for their small caches with 2 KiB blocks: 512 B, 1, 1.5 or
     * 2 KiB by the key modulo 4; 0 to 1500 ticks; shrinks of up to 16 KiB; half the memory changes to
     * {@link RandomScenario#INITIAL_FREE_MEMORY} (no pressure), the others to at most 128 KiB.
     */
    record Small() implements Magnitudes {
        @Override
        public long sizeOf(long key) {
            return 512 * (1 + Math.floorMod(key, 4));
        }

        @Override
        public long tick(SplitMix64 r) {
            return r.nextIndex(1501);
        }

        @Override
        public long shrink(SplitMix64 r) {
            return r.nextIndex((16 << 10) + 1);
        }

        @Override
        public long memory(SplitMix64 r) {
            return r.nextIndex(2) == 0 ? RandomScenario.INITIAL_FREE_MEMORY : r.nextIndex((128 << 10) + 1);
        }
    }

    /**
     * The oracle tries' magnitudes, drawn to the edges of their settings ({@link RandomSettings}), each with
     * {@link Draws#edged}.
     *
     * <ul>
     *   <li>Block sizes: four, drawn when the try starts, a key's the one at the key modulo 4; the first 512 B times
     *       [1, {@code spa_maxblocksize / 512}], the other three capped at 64 KiB, each typically up to 64 KiB, edges
     *       1 to 1.5 KiB, 3.5 to 4.5 KiB (the page), the last sizes below and the first at or above
     *       {@code zfs_abd_scatter_min_size} (linear and scatter ABDs), and one block below {@code spa_maxblocksize}.
     *       One size at most above 64 KiB: the oracle allocates every block, and tries whose four sizes were all
     *       drawn up to a 16 MiB {@code spa_maxblocksize} moved most of a campaign's bytes (the top 6 % of 500 tries
     *       97 % of their 21.5 GB).</li>
     *   <li>Ticks: [0, twice the longest of {@code hz}, the two prefetch lifetimes and {@code arc_grow_retry} in
     *       ticks, plus 2], typically up to {@code hz} (a second), edges 1, {@code ARC_MINTIME} and the lifetimes
     *       and the grow retry in ticks, each minus one, itself and plus one.</li>
     *   <li>Shrinks: [0, 2 {@code arc_c_max}], typically up to {@code arc_c_max / 2}, edges 1, 512, {@code arc_c_min},
     *       {@code arc_c_max - arc_c_min}, {@code arc_c_max}, {@code arc_c_max + 1}.</li>
     *   <li>Memory: half no pressure ({@link RandomScenario#INITIAL_FREE_MEMORY}); the others in [0, 2
     *       ({@code arc_sys_free + arc_c_max}) + 2], typically up to {@code arc_sys_free + arc_c_max}, edges around
     *       {@code arc_sys_free} (minus one, itself, plus one, half, half plus one) and {@code arc_sys_free} plus
     *       {@code arc_c_min >> arc_no_grow_shift} or {@code arc_c_max >> arc_no_grow_shift}.</li>
     * </ul>
     *
     * @param config the settings' configuration
     * @param sizes the four block sizes
     */
    record Wide(ArcConfig config, long[] sizes) implements Magnitudes {

        /** 64 KiB in 512-byte units: the typical block sizes' greatest, and the others' but the first's. */
        private static final long TYPICAL_UNITS = 128;

        /**
         * @param settings the try's settings
         * @param r the generator
         * @return the magnitudes, the block sizes drawn
         */
        static Wide draw(ConformanceSettings settings, SplitMix64 r) {
            ArcConfig c = settings.config();
            long units = c.maxBlockSize() / ArcConfig.MIN_BLOCK_SIZE;
            long scatter = (c.tunables().abdScatterMinSize() + ArcConfig.MIN_BLOCK_SIZE - 1) / ArcConfig.MIN_BLOCK_SIZE;
            long[] sizes = new long[4];
            for (int i = 0; i < sizes.length; i++) {
                long most = i == 0 ? units : Math.min(units, TYPICAL_UNITS);
                sizes[i] = ArcConfig.MIN_BLOCK_SIZE
                        * Draws.edged(r, 1, most, TYPICAL_UNITS, 2, 3, 7, 8, 9, scatter - 1, scatter, units - 1);
            }
            return new Wide(c, sizes);
        }

        @Override
        public long sizeOf(long key) {
            return sizes[(int) Math.floorMod(key, sizes.length)];
        }

        @Override
        public long tick(SplitMix64 r) {
            Tunables t = config.tunables();
            long prefetch = config.msToTicks(t.minPrefetchMs());
            long prescient = config.msToTicks(t.minPrescientPrefetchMs());
            long retry = (long) t.growRetrySeconds() * config.hz();
            long minTime = config.minTimeTicks();
            long longest = Math.max(Math.max(prefetch, prescient), Math.max(retry, config.hz()));
            return Draws.edged(r, 0, 2 * longest + 2, config.hz(), 1, minTime - 1, minTime, minTime + 1,
                    prefetch - 1, prefetch, prefetch + 1, prescient - 1, prescient, prescient + 1, retry - 1, retry,
                    retry + 1);
        }

        @Override
        public long shrink(SplitMix64 r) {
            long cMin = config.cMin();
            long cMax = config.cMax();
            return Draws.edged(r, 0, 2 * cMax, cMax / 2, 1, 512, cMin, cMax - cMin, cMax, cMax + 1);
        }

        @Override
        public long memory(SplitMix64 r) {
            if (r.nextIndex(2) == 0) {
                return RandomScenario.INITIAL_FREE_MEMORY;
            }
            long sysFree = config.sysFree();
            int noGrow = config.tunables().noGrowShift();
            return Draws.edged(r, 0, 2 * (sysFree + config.cMax()) + 2, sysFree + config.cMax(), sysFree - 1,
                    sysFree, sysFree + 1, sysFree / 2, sysFree / 2 + 1, sysFree + (config.cMin() >> noGrow),
                    sysFree + (config.cMax() >> noGrow));
        }
    }
}
