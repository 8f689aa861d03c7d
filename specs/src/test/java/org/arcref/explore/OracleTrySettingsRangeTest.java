package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.Setting;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The oracle check's tries ({@code arc explore --checks oracle}, {@code arc gen}) draw every header setting over its
 * valid range: over {@value #TRIES} tries of one seed, each setting of the engine takes its least and its greatest
 * value and one strictly between, and never one outside. The ranges are written here from the validation rules as
 * the spec's Javadoc states them ({@code ArcConfig}, {@code Tunables}, {@code ConformanceSettings}) and the oracle
 * harness's restrictions (docs/oracle.md), not read from the generator; so are the edges checked besides (sublist
 * counts that are not powers of two, clocks that divide neither 1000 nor 10^9, prefetch lifetimes that are not whole
 * ticks, block sizes at the scatter and page boundaries).
 */
class OracleTrySettingsRangeTest {

    static final int TRIES = 2000;
    static final long SEED = 37;
    static final long MAX_SIZE = Long.MAX_VALUE / 4;

    /** A setting's valid range in one try's settings (some bounds are other settings). */
    private record Range(long lo, long hi) {
    }

    private static Range range(Setting s, ConformanceSettings t) {
        ArcConfig c = t.config();
        boolean v22 = t.engine() == ZfsEngine.V2_2_0;
        return switch (s) {
            case SPA_MAXBLOCKSIZE -> new Range(512, 16L << 20);
            case GROWTH_WINDOW -> v22 ? new Range(2 * c.maxBlockSize(), 2 * c.maxBlockSize())
                    : new Range(512, 32L << 20);
            case ARC_C_MIN -> new Range(c.growthWindow(), MAX_SIZE);
            case ARC_C_MAX -> new Range(c.cMin(), MAX_SIZE);
            case ARC_SYS_FREE -> new Range(0, MAX_SIZE);
            case HZ -> new Range(16, 1_000_000);
            case SUBLISTS -> new Range(1, 1024);
            case RANDOM_SEED -> new Range(Long.MIN_VALUE, Long.MAX_VALUE);
            case EVICTOR_RUNS_AFTER_EACH_OPERATION, ZFS_ARC_P_DAMPENER_DISABLE, ZFS_ABD_SCATTER_ENABLED ->
                    new Range(0, 1);
            case ARC_FREE_MEMORY -> new Range(0, Long.MAX_VALUE);
            case ARC_P_MIN_SHIFT, ARC_SHRINK_SHIFT -> new Range(1, 63);
            case ARC_NO_GROW_SHIFT -> new Range(0, c.tunables().shrinkShift() - 1);
            case ARC_GROW_RETRY -> new Range(0, 86_400);
            case ZFS_ARC_OVERFLOW_SHIFT -> new Range(0, 63);
            case ZFS_ARC_EVICTION_PCT -> new Range(0, 100_000);
            case ZFS_ARC_EVICT_BATCH_LIMIT -> new Range(1, 1 << 20);
            case ARC_MIN_PREFETCH_MS, ARC_MIN_PRESCIENT_PREFETCH_MS -> new Range(0, 86_400_000);
            case ZFS_ABD_SCATTER_MIN_SIZE -> v22 ? new Range(1536, 1536) : new Range(0, Integer.MAX_VALUE);
            case SPA_OLD_MAXBLOCKSIZE -> new Range(512, 16L << 20);
            case ZFS_ARC_META_BALANCE -> new Range(100, Integer.MAX_VALUE);
        };
    }

    private static List<RandomScenario.Generated> tries(ZfsEngine engine) {
        List<RandomScenario.Generated> tries = new ArrayList<>();
        for (long t = 0; t < TRIES; t++) {
            tries.add(Explorer.tryOf(CheckKind.ORACLE, engine, Explorer.trySeed(SEED, t)));
        }
        return tries;
    }

    /**
     * zfs-2.1.1's ranges as stated; zfs-2.2.0's harness takes {@code growth_window} only as twice
     * {@code spa_maxblocksize} and {@code zfs_abd_scatter_min_size} only as 1536 (docs/oracle.md), so those two are
     * fixed there, and 2.2.11's arc.c (ASSERTs on) aborts in {@code arc_evict_adj} with a
     * {@code zfs_arc_meta_balance} below 100, so that starts at 100.
     */
    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(ZfsEngine.class)
    void triesDrawEverySettingOverItsRange(ZfsEngine engine) {
        List<RandomScenario.Generated> tries = tries(engine);
        Map<Setting, boolean[]> seen = new EnumMap<>(Setting.class);
        for (RandomScenario.Generated g : tries) {
            ConformanceSettings s = g.settings();
            assertEquals(engine, s.engine());
            assertTrue(s.config().fixes().isEmpty(), "the oracle's arc.c is the release as released");
            long window = s.config().growthWindow();
            assertEquals(0, window & (window - 1), "the harness derives SPA_MAXBLOCKSHIFT from growth_window");
            for (Setting setting : Setting.values()) {
                if (!setting.appliesTo(engine)) {
                    continue;
                }
                Range r = range(setting, s);
                long v = setting.get(s);
                assertTrue(v >= r.lo() && v <= r.hi(), setting.zfsName() + "=" + v + " outside " + r);
                boolean[] f = seen.computeIfAbsent(setting, k -> new boolean[3]);
                f[0] |= v == r.lo();
                f[1] |= v == r.hi();
                f[2] |= v > r.lo() && v < r.hi();
            }
        }
        for (Map.Entry<Setting, boolean[]> e : seen.entrySet()) {
            boolean[] f = e.getValue();
            Range first = range(e.getKey(), tries.get(0).settings());
            boolean noneBetween = first.hi() - first.lo() <= 1;
            assertTrue(f[0] && f[1] && (f[2] || noneBetween), e.getKey().zfsName() + ": least " + f[0]
                    + ", greatest " + f[1] + ", between " + f[2]);
        }
        assertEquals(Setting.values().length - 2, seen.size(), "every setting of the engine: " + seen.keySet());
    }

    @Test
    void zfs211TriesReachTheEdgesThatIntegerWidthAndRoundingDependOn() {
        List<RandomScenario.Generated> tries = tries(ZfsEngine.V2_1_1);
        TreeSet<Long> sublists = new TreeSet<>();
        for (RandomScenario.Generated g : tries) {
            sublists.add((long) g.settings().config().sublists());
        }
        assertTrue(sublists.containsAll(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 1023L, 1024L)), sublists.toString());
        assertSome(tries, s -> hz(s) % 1000 != 0 && 1000 % hz(s) != 0 && 1_000_000_000 % hz(s) != 0,
                "an hz that divides neither 1000 nor 10^9, nor is a multiple of 1000");
        assertSome(tries, s -> (hz(s) >> 4) == 1, "an hz with ARC_MINTIME = hz >> 4 one tick");
        for (Setting lifetime : List.of(Setting.ARC_MIN_PREFETCH_MS, Setting.ARC_MIN_PRESCIENT_PREFETCH_MS)) {
            assertSome(tries, s -> lifetime.get(s) * hz(s) % 1000 != 0, lifetime.zfsName() + " not whole ticks");
            assertSome(tries, s -> lifetime.get(s) > 0 && lifetime.get(s) * hz(s) % 1000 == 0,
                    lifetime.zfsName() + " whole ticks");
        }
        for (long edge : List.of(511L, 512L, 513L, 1535L, 1536L, 1537L, 4095L, 4096L, 4097L)) {
            assertSome(tries, s -> Setting.ZFS_ABD_SCATTER_MIN_SIZE.get(s) == edge, "zfs_abd_scatter_min_size=" + edge);
        }
    }

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(ZfsEngine.class)
    void operationSizesFollowSpaMaxblocksizeAndReachTheBoundaries(ZfsEngine engine) {
        boolean[] seen = new boolean[6];
        for (RandomScenario.Generated g : tries(engine)) {
            ArcConfig c = g.settings().config();
            for (Operation op : g.operations()) {
                long size = op instanceof Operation.Read r ? r.size() : op instanceof Operation.Write w ? w.size() : 0;
                if (size == 0) {
                    continue;
                }
                assertTrue(size % 512 == 0 && size <= c.maxBlockSize(), op.toTraceLine() + " above "
                        + c.maxBlockSize());
                long scatterMin = c.tunables().abdScatterMinSize();
                seen[0] |= size == 512;
                seen[1] |= size == c.maxBlockSize() && size == 16L << 20;
                seen[2] |= size % 4096 != 0 && size > 4096;
                seen[3] |= size == 4096;
                seen[4] |= size >= scatterMin && size - 512 < scatterMin && scatterMin > 512;
                seen[5] |= size < scatterMin && size + 512 >= scatterMin;
            }
        }
        assertTrue(seen[0] && seen[1] && seen[2] && seen[3] && seen[4] && seen[5], "512 B, 16 MiB, a size past a "
                + "page not a multiple of it, 4 KiB, the first scatter and the last linear size: "
                + Arrays.toString(seen));
    }

    private static long hz(ConformanceSettings s) {
        return s.config().hz();
    }

    private static void assertSome(List<RandomScenario.Generated> tries, Predicate<ConformanceSettings> p,
            String what) {
        assertTrue(tries.stream().anyMatch(g -> p.test(g.settings())), "no try draws " + what);
    }
}
