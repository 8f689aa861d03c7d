package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumCounters;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.aggsum.AggSumView;
import org.arcref.arc.SizeReads.Read;
import org.arcref.arc.SizeReads.Site;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every read of {@code arc_size} in {@link ConcurrentArc} is the one of the four aggsum reads
 * ({@code aggsum_lower_bound}, {@code aggsum_upper_bound}, {@code aggsum_value}, {@code aggsum_compare}) that
 * zfs-2.1.1's {@code arc.c} makes there ({@link SizeReads.Site}). Each scenario drives a real per-CPU
 * {@link AggSum} (one bucket, shift 0, so a slow-path add of {@code δ} leaves {@code 16·|δ|} borrowed) on the test's
 * one thread, with the evictor stepped on that thread: the bounds lie where the borrows put them, deterministically.
 * Each brings the cache to a state where the exact size and the bound 2.1.1 does not read lie on opposite sides of
 * the site's threshold, checks that state through the bounds (reads that flush nothing) and the state sizes, and
 * asserts the decision 2.1.1 makes. {@link #everyOtherReadAtASiteFailsItsScenario} plants every other read that can
 * stand at a site, one site at a time, and requires the site's scenario to fail; for {@code aggsum_value} against
 * {@code aggsum_compare}, which agree on every sign, a scenario counts the calls. The table of sites, with the C
 * lines, is in {@code docs/concurrent-arc.md}.
 *
 * <p>{@link ConcurrentArc#snapshot()} reads {@code aggsum_value}, which empties the bucket, so the scenarios call it
 * only where they want the slack gone.
 */
class BoundReadsTest {

    private static final long K = 1024;
    private static final long BLOCK = 4 * K;
    /** A slow-path add of one block borrows {@code BLOCK << 4}: the bounds lie this far either side of the value. */
    private static final long BORROW = BLOCK << AggSumLayout.BORROW_SHIFT;

    private static final SizeReads ZFS = SizeReads.of(ArcOptions.zfs());
    /** Starts the message of every assertion on a site's decision, so that a planted read is seen to fail there. */
    private static final String DECISION = "decision: ";

    /**
     * A stepped ARC on a real one-bucket aggsum that reads {@code arc_size} as {@code reads} says; the evictor runs
     * only when a scenario steps it. Scatter ABDs are off ({@code zfs_abd_scatter_enabled=0}), so that a block costs
     * its size once, held or not.
     */
    private static ConcurrentArc<Long> arc(ArcConfig config, SizeReads reads) {
        return new ConcurrentArc<>(config.withEvictorRunsAfterEachOperation(false)
                .withTunables(config.tunables().withAbdScatterEnabled(false)), MemoryModel.plentiful(),
                ArcOptions.zfs().withSteppedEvictor(), EvictWaiters::new, AtomicLong::addAndGet,
                options -> AggSum.create(0, AggSumLayout.singleBucket()), reads);
    }

    private static void read(ConcurrentArc<Long> arc, long key, boolean hold) {
        arc.read(key, BLOCK, ReadKind.DEMAND, hold, k -> k);
    }

    /** Reads {@code key} and empties the aggsum's bucket ({@code aggsum_value}), so the next add borrows afresh. */
    private static void readAndFlush(ConcurrentArc<Long> arc, long key, boolean hold) {
        read(arc, key, hold);
        arc.sizeAggsum().value();
    }

    /** The exact {@code arc_size}, from the state sizes: no aggsum read, so no flush. */
    private static long exact(ConcurrentArc<Long> arc) {
        return arc.stateSize(ArcState.ANON) + arc.stateSize(ArcState.MRU) + arc.stateSize(ArcState.MFU);
    }

    /** Asserts the bounds and the exact size, read without flushing anything. */
    private static void assertSizes(ConcurrentArc<Long> arc, long lower, long exact, long upper, String why) {
        AggSumView size = arc.sizeAggsum();
        assertEquals(List.of(lower, exact, upper), List.of(size.lowerBound(), exact(arc), size.upperBound()),
                "lower bound, exact size, upper bound: " + why);
    }

    // ---- arc_get_data_impl: arc_p grows only if aggsum_upper_bound(&arc_size) < arc_c (arc.c:5336) ----

    static void pGrowth(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(256 * K, 256 * K, BLOCK), reads)) {
            for (long key = 0; key < 49; key++) {
                readAndFlush(arc, key, true);
            }
            long p = arc.mruTarget();
            assertTrue(exact(arc) + BLOCK > p, "anon + mru will exceed arc_p after the next allocation");
            read(arc, 49, true);
            // the growth test reads arc_size after this allocation's add, which borrowed 64K: exact 200K and lower
            // bound 136K are below arc_c = 256K, the upper bound 264K is not
            assertEquals(p, arc.mruTarget(),
                    DECISION + "2.1.1 reads the upper bound, not below arc_c: arc_p must not grow");
            assertSizes(arc, 200 * K - BORROW, 200 * K, 200 * K + BORROW, "the 50th block borrowed 64K");
        }
    }

    @Test
    @DisplayName("arc_get_data_impl grows arc_p only if aggsum_upper_bound(&arc_size) < arc_c (arc.c:5336)")
    void pGrowthReadsTheUpperBound() {
        pGrowth(ZFS);
    }

    // ---- arc_adapt: arc_c grows only if aggsum_upper_bound >= arc_c - 2 * SPA_MAXBLOCKSIZE (arc.c:5121) ----

    static void adapt(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(256 * K, 1024 * K, BLOCK), reads)) {
            for (long key = 0; key < 50; key++) {
                readAndFlush(arc, key, false);
            }
            read(arc, 50, false);
            assertEquals(256 * K, arc.targetSize(), "arc_c has not grown: the threshold is 256K - 8K = 248K");
            assertSizes(arc, 204 * K - BORROW, 204 * K, 204 * K + BORROW, "the 51st block borrowed 64K");
            read(arc, 51, false);
            // arc_adapt runs before the allocation is added: exact 204K and lower 140K are below 248K, upper 268K not
            assertEquals(260 * K, arc.targetSize(),
                    DECISION + "2.1.1 reads the upper bound: arc_c must grow by the block");
        }
    }

    @Test
    @DisplayName("arc_adapt grows arc_c only if aggsum_upper_bound(&arc_size) >= arc_c - growth window (arc.c:5121)")
    void cGrowthReadsTheUpperBound() {
        adapt(ZFS);
    }

    // ---- arc_is_overflowing reads aggsum_lower_bound (arc.c:5154) ----

    static void overflow(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(256 * K, 256 * K, BLOCK), reads)) {
            for (long key = 0; key < 64; key++) {
                readAndFlush(arc, key, false);
            }
            read(arc, 64, false);
            assertSizes(arc, 260 * K - BORROW, 260 * K, 260 * K + BORROW, "the 65th block borrowed 64K");
            read(arc, 65, false);
            // overflow = MAX(4K, 256K >> 8) = 4K: NONE below arc_c + 2K = 258K, SEVERE from arc_c + 4K = 260K
            assertEquals(0, arc.stat(ArcStat.EVICT_WAITS),
                    DECISION + "2.1.1 reads the lower bound, 196K: the read must not wait");
            assertFalse(arc.snapshot().evictNeeded(),
                    DECISION + "the lower bound is not even SOME over: nothing asks to evict");
        }
    }

    @Test
    @DisplayName("arc_is_overflowing reads aggsum_lower_bound(&arc_size) (arc.c:5154)")
    void overflowReadsTheLowerBound() {
        overflow(ZFS);
    }

    // ---- arc_evict_cb keeps eviction needed only if aggsum_compare(&arc_size, arc_c) > 0 (arc.c:4908) ----

    /**
     * A 64K cache (largest block 16K: overflow allowance 16K, so no allocation here overflows) holding two MFU blocks,
     * the second held if {@code mfuHeld}, and 16 held MRU blocks: 72K. The reduction asks for eviction; the pass
     * can take only the unheld MFU blocks. Its first eviction after {@code aggsum_value}'s flush borrows 64K.
     */
    private static ConcurrentArc<Long> mfuOverTarget(SizeReads reads, boolean mfuHeld) {
        ConcurrentArc<Long> arc = arc(ArcConfig.small(64 * K, 64 * K, 16 * K), reads);
        readAndFlush(arc, 100, false);
        readAndFlush(arc, 101, false);
        arc.tick(1000);
        readAndFlush(arc, 100, false);
        readAndFlush(arc, 101, mfuHeld);
        for (long key = 0; key < 16; key++) {
            readAndFlush(arc, key, true);
        }
        assertEquals(List.of(8 * K, 64 * K), List.of(arc.stateSize(ArcState.MFU), arc.stateSize(ArcState.MRU)));
        arc.reduceTargetSize(0);
        assertTrue(arc.snapshot().evictNeeded(), "72K over arc_c 64K: eviction requested");
        return arc;
    }

    static void evictCbStops(SizeReads reads) {
        try (ConcurrentArc<Long> arc = mfuOverTarget(reads, false)) {
            assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep());
            // at arc_evict_cb: the first MFU eviction after the flush borrowed 64K, the second did not: lower bound
            // 4K, exact 64K, upper bound 132K (aggsum_compare then flushed the bucket)
            assertEquals(64 * K, exact(arc), "both MFU blocks evicted");
            assertFalse(arc.snapshot().evictNeeded(),
                    DECISION + "the exact size 64K is not above arc_c: eviction no longer needed (the upper bound is)");
        }
    }

    static void evictCbGoesOn(SizeReads reads) {
        try (ConcurrentArc<Long> arc = mfuOverTarget(reads, true)) {
            assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep());
            // at arc_evict_cb: the one MFU eviction borrowed 64K: lower bound 4K, exact 68K, upper bound 132K
            assertEquals(68 * K, exact(arc), "the unheld MFU block evicted");
            assertTrue(arc.snapshot().evictNeeded(),
                    DECISION + "the exact size 68K is above arc_c: eviction still needed (the lower bound, 4K, is"
                            + " not)");
        }
    }

    static void evictCbCalls(SizeReads reads) {
        try (ConcurrentArc<Long> arc = mfuOverTarget(reads, true)) {
            AggSumCounters before = arc.sizeAggsum().counters();
            arc.evictorStep();
            AggSumCounters after = arc.sizeAggsum().counters();
            assertEquals(List.of(2L, 1L), List.of(after.valueCalls() - before.valueCalls(),
                    after.compareCalls() - before.compareCalls()),
                    DECISION + "one pass: aggsum_value for the MRU and the MFU targets, aggsum_compare in"
                            + " arc_evict_cb");
        }
    }

    @Test
    @DisplayName("arc_evict_cb keeps eviction needed only if aggsum_compare(&arc_size, arc_c) > 0 (arc.c:4908)")
    void evictCbReadsTheExactCompare() {
        evictCbStops(ZFS);
        evictCbGoesOn(ZFS);
    }

    @Test
    @DisplayName("one arc_evict pass reads aggsum_value(&arc_size) twice and arc_evict_cb aggsum_compare once"
            + " (arc.c:4575, 4636, 4908)")
    void oneEvictionPassReadsValueTwiceAndCompareOnce() {
        evictCbCalls(ZFS);
    }

    // ---- arc_evict's MRU target is MIN(aggsum_value(&arc_size) - arc_c, anon + mru - arc_p) (arc.c:4575) ----

    static void evictMru(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(64 * K, 64 * K, 16 * K), reads)) {
            for (long key = 0; key < 19; key++) {
                readAndFlush(arc, key, false);
            }
            read(arc, 19, false);
            assertSizes(arc, 80 * K - BORROW, 80 * K, 80 * K + BORROW, "the 20th block borrowed 64K");
            assertEquals(32 * K, arc.mruTarget(), "arc_p has not moved: every upper bound was at least arc_c");
            assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep(), "the 20th read found the cache SOME over");
            // MIN(80K - 64K, 80K - 32K) = 16K; from the upper bound MIN(80K, 48K) = 48K; from the lower, negative
            assertEquals(64 * K, arc.stateSize(ArcState.MRU),
                    DECISION + "2.1.1 reads the value: four blocks evicted from MRU");
        }
    }

    @Test
    @DisplayName("arc_evict's MRU target reads aggsum_value(&arc_size) (arc.c:4575)")
    void mruTargetReadsTheValue() {
        evictMru(ZFS);
    }

    // ---- arc_evict's MFU target is aggsum_value(&arc_size) - arc_c (arc.c:4636) ----

    static void evictMfu(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(64 * K, 64 * K, 16 * K), reads)) {
            for (long key = 100; key < 111; key++) {
                readAndFlush(arc, key, false);
            }
            arc.tick(1000);
            for (long key = 100; key < 111; key++) {
                readAndFlush(arc, key, false);
            }
            for (long key = 0; key < 8; key++) {
                readAndFlush(arc, key, false);
            }
            read(arc, 8, false);
            assertEquals(List.of(44 * K, 36 * K, 32 * K),
                    List.of(arc.stateSize(ArcState.MFU), arc.stateSize(ArcState.MRU), arc.mruTarget()));
            assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep(), "the last read found the cache SOME over");
            // MRU: MIN(80K - 64K, 36K - 32K) = 4K, one block, whose eviction borrows 64K after the flush; then the
            // value is 76K: MFU target 12K; from the upper bound (140K) 76K, all of MFU; from the lower (12K), none
            assertEquals(List.of(32 * K, 32 * K), List.of(arc.stateSize(ArcState.MFU), arc.stateSize(ArcState.MRU)),
                    DECISION + "2.1.1 reads the value: one block from MRU, three from MFU");
        }
    }

    @Test
    @DisplayName("arc_evict's MFU target reads aggsum_value(&arc_size) again (arc.c:4636)")
    void mfuTargetReadsTheValue() {
        evictMfu(ZFS);
    }

    // ---- arc_reduce_target_size starts from MIN(arc_c, aggsum_value(&arc_size)) (arc.c:4751) ----

    static void reduceTarget(SizeReads reads) {
        try (ConcurrentArc<Long> arc = arc(ArcConfig.small(16 * K, 1024 * K, BLOCK), reads)) {
            for (long key = 0; key < 29; key++) {
                readAndFlush(arc, key, false);
            }
            read(arc, 29, false);
            long c = arc.targetSize();
            assertSizes(arc, 120 * K - BORROW, 120 * K, 120 * K + BORROW, "the 30th block borrowed 64K");
            assertTrue(c > 120 * K, "arc_c " + c + " is above the exact size");
            arc.reduceTargetSize(0);
            assertEquals(120 * K, arc.targetSize(),
                    DECISION + "arc_c = MIN(arc_c, 120K) - 0: from the upper bound it would be"
                    + " MIN(arc_c, 184K), from the lower 56K");
        }
    }

    @Test
    @DisplayName("arc_reduce_target_size starts from MIN(arc_c, aggsum_value(&arc_size)) (arc.c:4751)")
    void reduceTargetReadsTheValue() {
        reduceTarget(ZFS);
    }

    // ---- every other read, planted at one site, fails that site's scenario ----

    private static final Map<Site, List<Consumer<SizeReads>>> SCENARIOS = Map.of(
            Site.P_GROWTH, List.of(BoundReadsTest::pGrowth),
            Site.ADAPT, List.of(BoundReadsTest::adapt),
            Site.OVERFLOW, List.of(BoundReadsTest::overflow),
            Site.EVICT_CB, List.of(BoundReadsTest::evictCbStops, BoundReadsTest::evictCbGoesOn,
                    BoundReadsTest::evictCbCalls),
            Site.EVICT_MRU, List.of(BoundReadsTest::evictMru),
            Site.EVICT_MFU, List.of(BoundReadsTest::evictMfu),
            Site.REDUCE_TARGET, List.of(BoundReadsTest::reduceTarget));

    @TestFactory
    @DisplayName("planted: every other aggsum read at one arc_size site fails that site's scenario")
    List<DynamicTest> everyOtherReadAtASiteFailsItsScenario() {
        assertEquals(Site.values().length, SCENARIOS.size(), "every site has a scenario");
        List<DynamicTest> tests = new ArrayList<>();
        for (Site site : Site.values()) {
            for (Read read : Read.values()) {
                if (read == site.zfs || !site.accepts(read)) {
                    continue;
                }
                SizeReads planted = ZFS.with(site, read);
                tests.add(DynamicTest.dynamicTest(site + " reading " + read, () -> {
                    AssertionError failure = assertThrows(AssertionError.class,
                            () -> SCENARIOS.get(site).forEach(scenario -> scenario.accept(planted)),
                            site + " reading " + read + " instead of " + site.zfs
                                    + " passed every scenario of the site");
                    assertTrue(failure.getMessage().startsWith(DECISION),
                            "the planted read must fail at the site's decision, not before: " + failure.getMessage());
                }));
            }
        }
        assertEquals(16, tests.size(), "two sites compare only (3 other reads each), five use the number (2 each)");
        return tests;
    }

    @Test
    @DisplayName("2.1.1's read at every site; the exact arc_p compare only where the options ask for it")
    void theReadsOf211() {
        assertEquals("P_GROWTH=UPPER_BOUND, ADAPT=UPPER_BOUND, OVERFLOW=LOWER_BOUND, EVICT_CB=COMPARE,"
                + " EVICT_MRU=VALUE, EVICT_MFU=VALUE, REDUCE_TARGET=VALUE", ZFS.toString());
        assertEquals(Read.COMPARE, SizeReads.of(ArcOptions.zfs().withExactPGrowthCompare(true)).at(Site.P_GROWTH));
        assertThrows(IllegalArgumentException.class, () -> ZFS.with(Site.EVICT_MRU, Read.COMPARE));
    }
}
