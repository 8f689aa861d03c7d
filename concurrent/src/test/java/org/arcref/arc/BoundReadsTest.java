package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.arcref.aggsum.AggSumCounters;
import org.arcref.aggsum.SkewedBoundsAggSum;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every read of {@code arc_size} in {@link ConcurrentArc} is pinned to the one of the four aggsum reads
 * ({@code aggsum_lower_bound}, {@code aggsum_upper_bound}, {@code aggsum_value}, {@code aggsum_compare}) that
 * zfs-2.1.1's {@code arc.c} makes there. Each test brings the cache to a state where the exact size lies on one side
 * of that site's threshold, skews the bounds ({@link SkewedBoundsAggSum}) so that the bound 2.1.1 does not read lies
 * on the other side, and asserts what 2.1.1 does; a control without the skew shows the threshold is live. So each
 * test fails if its site reads any other of the four (for {@code value} against {@code compare}, which agree on
 * every sign, by counting the calls). The table of sites, with the C lines, is in {@code docs/concurrent-arc.md}.
 *
 * <p>The evictor is stepped and does not run after each operation, so nothing moves but what a test does.
 */
class BoundReadsTest {

    private static final long K = 1024;
    private static final long BLOCK = 4 * K;

    /**
     * A stepped ARC whose {@code arc_size} is {@code size}; the evictor runs only when a test steps it. Scatter ABDs
     * are off ({@code zfs_abd_scatter_enabled=0}), so that a block costs its size once, held or not: the thresholds
     * below are counted in blocks, and the private copies of scatter data would only double the counts.
     */
    private static ConcurrentArc<Long> arc(ArcConfig config, SkewedBoundsAggSum size) {
        return new ConcurrentArc<>(config.withEvictorRunsAfterEachOperation(false)
                .withTunables(config.tunables().withAbdScatterEnabled(false)), MemoryModel.plentiful(),
                ArcOptions.deterministic(), EvictWaiters::new, AtomicLong::addAndGet, options -> size);
    }

    private static void read(ConcurrentArc<Long> arc, long key, boolean hold) {
        arc.read(key, BLOCK, ReadKind.DEMAND, hold, k -> k);
    }

    @Test
    @DisplayName("arc_get_data_impl grows arc_p only if aggsum_upper_bound(&arc_size) < arc_c (arc.c:5336)")
    void pGrowthReadsTheUpperBound() {
        for (boolean skewed : new boolean[] {false, true}) {
            SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
            try (ConcurrentArc<Long> arc = arc(ArcConfig.small(64 * K, 64 * K, BLOCK), size)) {
                for (long key = 0; key < 8; key++) {
                    arc.write(key, BLOCK, key);
                }
                assertEquals(32 * K, arc.snapshot().p(), "8 anonymous blocks fill arc_p = arc_c/2 exactly");
                if (skewed) {
                    size.skew(0, 28 * K);
                }
                arc.write(8, BLOCK, 8L);
                // after the 9th allocation: exact size 36K < arc_c 64K <= upper bound 64K; anon 36K > arc_p 32K
                assertEquals(skewed ? 32 * K : 36 * K, arc.snapshot().p(), skewed
                        ? "2.1.1 reads the upper bound, which is not below arc_c: arc_p must not grow"
                        : "control: with the bounds at the exact size arc_p grows by the block");
            }
        }
    }

    @Test
    @DisplayName("arc_adapt grows arc_c only if aggsum_upper_bound(&arc_size) >= arc_c - growth window (arc.c:5121)")
    void cGrowthReadsTheUpperBound() {
        for (boolean skewed : new boolean[] {false, true}) {
            SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
            try (ConcurrentArc<Long> arc = arc(ArcConfig.small(32 * K, 128 * K, BLOCK), size)) {
                read(arc, 0, false);
                read(arc, 1, false);
                assertEquals(32 * K, arc.snapshot().c(), "8K cached is far below arc_c - window = 24K");
                if (skewed) {
                    size.skew(0, 16 * K);
                }
                read(arc, 2, false);
                // arc_adapt runs before the allocation is added: exact size 8K < 24K <= upper bound 24K
                assertEquals(skewed ? 36 * K : 32 * K, arc.snapshot().c(), skewed
                        ? "2.1.1 reads the upper bound, which reaches arc_c - window: arc_c must grow by the block"
                        : "control: with the bounds at the exact size arc_c stays");
            }
        }
    }

    @Test
    @DisplayName("arc_is_overflowing reads aggsum_lower_bound(&arc_size) (arc.c:5154)")
    void overflowReadsTheLowerBound() {
        for (boolean skewed : new boolean[] {false, true}) {
            SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
            try (ConcurrentArc<Long> arc = arc(ArcConfig.small(16 * K, 16 * K, BLOCK), size)) {
                for (long key = 0; key < 5; key++) {
                    read(arc, key, false);
                }
                assertEquals(20 * K, arc.snapshot().size(), "5 blocks cached: arc_c + overflow, SEVERE");
                assertEquals(0, arc.stat(ArcStat.EVICT_WAITS));
                if (skewed) {
                    size.skew(8 * K, 0);
                }
                read(arc, 5, false);
                // overflow = MAX(4K, arc_c >> 8) = 4K: SEVERE from arc_c + 4K = 20K, NONE below arc_c + 2K = 18K
                assertEquals(skewed ? 0 : 1, arc.stat(ArcStat.EVICT_WAITS), skewed
                        ? "2.1.1 reads the lower bound, 12K, not overflowing: the read must not wait"
                        : "control: at the exact size 20K the read waits for eviction");
            }
        }
    }

    /**
     * A cache of {@code arc_c = 32K} holding {@code held} 4K blocks the reader keeps and one evictable block, with
     * eviction requested ({@code arc_reduce_target_size(0)} finds the size above {@code arc_c}). The largest block
     * is 16K, so the overflow allowance is 16K: nothing waits below 48K while the state is built.
     */
    private static ConcurrentArc<Long> heldAndOneEvictable(SkewedBoundsAggSum size, int held) {
        ConcurrentArc<Long> arc = arc(ArcConfig.small(32 * K, 32 * K, 16 * K), size);
        for (long key = 0; key < held; key++) {
            read(arc, key, true);
        }
        read(arc, held, false);
        arc.reduceTargetSize(0);
        assertTrue(arc.snapshot().evictNeeded(), "eviction requested");
        return arc;
    }

    @Test
    @DisplayName("arc_evict_cb keeps eviction needed only if aggsum_compare(&arc_size, arc_c) > 0 (arc.c:4908)")
    void evictCbReadsTheExactCompare() {
        // after the pass the exact size is 32K = arc_c, the upper bound 40K: 2.1.1 stops
        for (boolean skewed : new boolean[] {false, true}) {
            SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
            try (ConcurrentArc<Long> arc = heldAndOneEvictable(size, 8)) {
                if (skewed) {
                    size.skew(0, 8 * K);
                }
                assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep());
                ArcSnapshot after = arc.snapshot();
                assertEquals(32 * K, after.size(), "the pass evicted the one evictable block");
                assertFalse(after.evictNeeded(), "the exact size is not above arc_c: eviction no longer needed"
                        + (skewed ? " (the upper bound, 40K, is above it)" : ""));
            }
        }
        // after the pass the exact size is 36K > arc_c, the lower bound 28K: 2.1.1 goes on
        for (boolean skewed : new boolean[] {false, true}) {
            SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
            try (ConcurrentArc<Long> arc = heldAndOneEvictable(size, 9)) {
                if (skewed) {
                    size.skew(8 * K, 0);
                }
                assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep());
                ArcSnapshot after = arc.snapshot();
                assertEquals(36 * K, after.size(), "the pass evicted the one evictable block");
                assertTrue(after.evictNeeded(), "the exact size is above arc_c: eviction still needed"
                        + (skewed ? " (the lower bound, 28K, is not above it)" : ""));
            }
        }
    }

    @Test
    @DisplayName("one arc_evict pass reads aggsum_value(&arc_size) twice and arc_evict_cb aggsum_compare once"
            + " (arc.c:4575, 4636, 4908)")
    void oneEvictionPassReadsValueTwiceAndCompareOnce() {
        SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
        try (ConcurrentArc<Long> arc = heldAndOneEvictable(size, 9)) {
            AggSumCounters before = size.counters();
            arc.evictorStep();
            AggSumCounters after = size.counters();
            assertEquals(2, after.valueCalls() - before.valueCalls(), "arc_evict: asize for MRU, then for MFU");
            assertEquals(1, after.compareCalls() - before.compareCalls(), "arc_evict_cb: eviction still needed?");
        }
    }

    @Test
    @DisplayName("arc_evict's targets are aggsum_value(&arc_size) - arc_c (arc.c:4575, 4636)")
    void evictionTargetsReadTheValue() {
        SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(32 * K, 32 * K, 16 * K), size)) {
            for (long key = 0; key < 10; key++) {
                read(arc, key, false);
            }
            assertEquals(40 * K, arc.snapshot().size());
            arc.reduceTargetSize(0);
            // exact size 40K: MRU target MIN(40K - 32K, anon + mru - arc_p = 24K) = 8K, then MFU target 0
            size.skew(8 * K, 8 * K);
            arc.evictorStep();
            assertEquals(32 * K, arc.snapshot().state(ArcState.MRU).size(),
                    "two blocks evicted: from the upper bound (48K) it would be four, from the lower (32K) none");
        }
    }

    @Test
    @DisplayName("arc_reduce_target_size starts from MIN(arc_c, aggsum_value(&arc_size)) (arc.c:4751)")
    void reduceTargetReadsTheValue() {
        SkewedBoundsAggSum size = SkewedBoundsAggSum.create();
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(16 * K, 32 * K, BLOCK), size)) {
            for (long key = 0; key < 8; key++) {
                read(arc, key, false);
            }
            assertEquals(32 * K, arc.snapshot().c(), "arc_adapt grew arc_c to arc_c_max");
            arc.free(0);
            arc.free(1);
            assertEquals(24 * K, arc.snapshot().size());
            size.skew(4 * K, 4 * K);
            arc.reduceTargetSize(0);
            assertEquals(24 * K, arc.snapshot().c(),
                    "arc_c = MIN(32K, 24K) - 0: from the upper bound it would be 28K, from the lower 20K");
        }
    }
}
