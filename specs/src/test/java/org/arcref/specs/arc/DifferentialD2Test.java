package org.arcref.specs.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.BrokenArcs;
import org.arcref.arc.ConcurrentArc;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.trace.SharedTraces;
import org.arcref.trace.TraceReader;
import org.arcref.workload.SyntheticWorkload;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsPageCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * D2, the bounded differential, on traces: the concurrent ARC with the default mode's per-CPU aggsum (its
 * hot-path reads of {@code arc_size} are bounds), driven by one thread in page mode beside the spec, on all 13
 * LIRS traces at a quarter of their distinct pages and on 200,000 requests of the synthetic workload (seeds 42, 7
 * and 2021) at 500 and 5,000 pages: 19 runs.
 *
 * <ul>
 *   <li><b>Every step within the slack</b> ({@link SlackDivergence}: the first divergence has the slack's
 *       direction, the cached sizes differ by at most the slack bound),
 *       in three settings: 2.1.1 with the evictor stepped after each request as the spec's
 *       ({@link ArcOptions#withSteppedEvictor()}); the same with the exact {@code arc_p} growth compare; and the
 *       full default mode ({@link ArcOptions#zfs()}, the evict zthr on its own thread at {@code defclsyspri}) with
 *       the reader calling {@link ConcurrentArc#awaitEvictorIdle()} after each request, so the state is quiescent
 *       when compared and the zthr's own bucket adds to the slack bound.</li>
 *   <li><b>Hit ratios within 0.5 points</b> with the exact {@code arc_p} growth compare and the evictor stepped.
 *       Measured: identical hits on all 19 runs (no divergence at any step).</li>
 * </ul>
 *
 * <p>Where D2's "hit ratios within 0.5 points" ({@code docs/architecture.md}) holds beyond that, and where not
 * (printed by the tests, not asserted):
 * <ul>
 *   <li>With 2.1.1's upper-bound {@code arc_p} growth check, every run is within 0.5 points too (measured: zigzag
 *       0.14, backf 0.12, the largest; gli equal), now that the sublists are 2.1.1's
 *       ({@link #theUpperBoundPGrowthCheckEndsNearTheSpecsArcPOnGliAndTheExactCompareEqualsIt()}); with the stand-in
 *       sublist hash used before the oracle, gli differed by 4.34 points (8.00 % against 3.66 %).</li>
 *   <li>With a zthr thread the evictor's frees go through another aggsum bucket (a thread starts at one chosen
 *       from its thread id and moves on when that bucket's lock is taken), so results vary from run to run: in lock
 *       step, zigzag 22.57 % in one build and 20.07 % in another against the spec's 19.88 % (see
 *       {@code docs/concurrent-arc.md}).</li>
 *   <li>With the zthr free-running and nobody waiting for it, one fast reader outpaces it (it waits only at the
 *       SEVERE level, which the lower bound reports up to a gap late) and the overflow is evicted in batches;
 *       {@code arc_evict} takes at most {@code anon + mru - arc_p} from MRU and the rest from MFU, where the spec,
 *       evicting about one page per request, takes nearly all from MRU: {@code arc replay --concurrent 1 --sizes
 *       500 --length 200000} hit 23.31 % and 22.69 % in two runs against the spec's 29.64 %. That is 2.1.1's code
 *       under this scheduling, not a policy difference.</li>
 * </ul>
 */
class DifferentialD2Test {

    private static final int SYNTHETIC_REQUESTS = 200_000;

    static Stream<Arguments> traces() {
        Stream<Arguments> lirs = Arrays.stream(SharedTraces.LIRS_NAMES).map(name -> {
            long[] trace = TraceReader.read(SharedTraces.lirs(name));
            return Arguments.of(name, trace, Math.max(16, (int) Arrays.stream(trace).distinct().count() / 4));
        });
        Stream<Arguments> synthetic = LongStream.of(42, 7, 2021).boxed().flatMap(seed -> {
            long[] trace = SyntheticWorkload.defaults().withSeed(seed).withLength(SYNTHETIC_REQUESTS).generate();
            return Stream.of(Arguments.of("synthetic seed " + seed, trace, 500),
                    Arguments.of("synthetic seed " + seed, trace, 5_000));
        });
        return Stream.concat(lirs, synthetic);
    }

    @ParameterizedTest(name = "D2 on {0} at {2} pages, 2.1.1 with the evictor stepped: every step within the "
            + "slack")
    @MethodSource("traces")
    void d2EveryStepWithinTheSlack(String name, long[] trace, int pages) {
        replayWithChecks(name, trace, pages, ArcOptions.zfs().withSteppedEvictor());
    }

    @ParameterizedTest(name = "D2 on {0} at {2} pages, evictor stepped, exact arc_p growth compare: every step "
            + "within the slack, hit ratios within 0.5 points")
    @MethodSource("traces")
    void d2HitRatiosAgreeWithTheExactPGrowthCompare(String name, long[] trace, int pages) {
        HitRatios ratios = replayWithChecks(name, trace, pages,
                ArcOptions.zfs().withSteppedEvictor().withExactPGrowthCompare(true));
        ratios.assertWithinHalfAPoint();
    }

    /**
     * What 2.1.1's upper-bound {@code arc_p} growth check ({@code aggsum_upper_bound(&arc_size) < arc_c}, #8901) does to
     * {@code arc_p} once the cache is full, on gli at 632 pages. The check is false whenever the borrow of the next
     * allocation lifts the upper bound over {@code arc_c}, so {@code arc_p} can grow there only on an allocation just
     * after an eviction pass. Measured with 2.1.1's own sublists ({@code buf_hash}, {@code random_in_range},
     * {@code arc_evict_type}'s draws, which the oracle showed: {@code docs/oracle.md}): the spec's {@code arc_p} ends at
     * 2,568,192 bytes of {@code arc_c} 2,588,672, the upper-bound ARC's at 2,564,096, both hit 1.347 %; the growth
     * in {@code arc_adapt} (upper bound at least {@code arc_c} minus the growth window) takes {@code arc_p} there in
     * both. Before the oracle, a stand-in sublist hash (SplitMix64) on 4 sublists gave 1,255,424 and 161,792 (3.66 %
     * and 8.00 %), which this test then pinned as a stall of the upper-bound check: the stall was the stand-in's. With
     * the exact compare the concurrent ARC's {@code arc_p} is the spec's, byte for byte.
     */
    @Test
    void theUpperBoundPGrowthCheckEndsNearTheSpecsArcPOnGliAndTheExactCompareEqualsIt() {
        long[] trace = TraceReader.read(SharedTraces.lirs("gli"));
        int pages = 632;
        ArcConfig config = ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE);
        long c = config.cMax();
        ZfsPageCache<ZfsArc> spec = ZfsPageCache.zfs(pages);
        try (ConcurrentArc<Long> upperBound = new ConcurrentArc<>(config, MemoryModel.plentiful(),
                ArcOptions.zfs().withSteppedEvictor());
                ConcurrentArc<Long> exact = new ConcurrentArc<>(config, MemoryModel.plentiful(),
                        ArcOptions.zfs().withSteppedEvictor().withExactPGrowthCompare(true))) {
            for (long page : trace) {
                spec.access(page);
                for (ConcurrentArc<Long> arc : List.of(upperBound, exact)) {
                    arc.tick(1);
                    arc.read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false, Long::valueOf);
                }
            }
            long specP = spec.arc().mruTarget();
            System.out.printf("gli at %d pages, arc_p at the end: spec %d, upper-bound check %d, exact compare %d "
                    + "bytes (arc_c %d)%n", pages, specP, upperBound.mruTarget(), exact.mruTarget(), c);
            assertEquals(specP, exact.mruTarget(), "with the exact compare arc_p should be the spec's");
            assertTrue(specP > c / 2, "the spec's arc_p should grow past half of arc_c on gli, was " + specP);
            assertTrue(Math.abs(upperBound.mruTarget() - specP) <= 4 * ZfsPageCache.PAGE_SIZE,
                    "with the upper-bound check arc_p should end within 4 pages of the spec's " + specP + ", was "
                            + upperBound.mruTarget());
        }
    }

    /**
     * D2 can fail: an ARC whose growth checks read the lower bound of {@code arc_size} instead of the upper one
     * grows {@code arc_p} while the cache is already full, so at the first divergence its {@code arc_p} is the
     * larger, which the slack cannot explain. D1 cannot see this variant (its aggsum is exact).
     */
    @Test
    void d2CatchesGrowthChecksOnTheLowerBound() {
        long[] trace = SyntheticWorkload.defaults().withLength(20_000).generate();
        int pages = 500;
        ArcConfig config = ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE);
        try (ConcurrentArc<Long> broken = BrokenArcs.growthOnTheLowerBound(config, MemoryModel.plentiful(),
                ArcOptions.zfs().withSteppedEvictor())) {
            SlackDivergence divergence = new SlackDivergence("the lower-bound growth variant",
                    SlackDivergence.sizeBound(ZfsPageCache.PAGE_SIZE, config, broken.sizeAggsum(), 1));
            PropertyViolation caught = assertThrows(PropertyViolation.class,
                    () -> replay("synthetic", trace, pages, broken, divergence));
            System.out.println("D2 caught the lower-bound growth variant: " + caught.getMessage());
            assertEquals(Property.D2, caught.property(), caught.getMessage());
            assertTrue(caught.detail().contains("against the slack's direction"), caught.getMessage());
        }
    }

    private static HitRatios replayWithChecks(String name, long[] trace, int pages, ArcOptions options) {
        int threads = options.isStepped() ? 1 : 2;
        ArcConfig config = ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE);
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), options)) {
            SlackDivergence divergence = new SlackDivergence(name + " at " + pages + " pages",
                    SlackDivergence.sizeBound(ZfsPageCache.PAGE_SIZE, config, arc.sizeAggsum(), threads));
            HitRatios ratios = replay(name, trace, pages, arc, divergence);
            System.out.println(divergence);
            return ratios;
        }
    }

    @ParameterizedTest(name = "D2 on {0} at {2} pages, default mode with the evict zthr kept in lock step: every "
            + "step within the slack")
    @MethodSource("traces")
    void d2InTheDefaultModeWithTheZthrInLockStep(String name, long[] trace, int pages) {
        replayWithChecks(name, trace, pages, ArcOptions.zfs());
    }

    /** The hit ratios of one replay, in percent. */
    private record HitRatios(String run, double spec, double concurrent) {
        void assertWithinHalfAPoint() {
            assertTrue(Math.abs(spec - concurrent) < 0.5, "D2 on " + run + ": hit ratios differ by more than 0.5 "
                    + "points: spec " + spec + ", concurrent " + concurrent);
        }
    }

    /**
     * Replays {@code trace} through the spec and {@code arc}, comparing each step through {@code divergence}; with
     * an evict zthr, waits for it to go idle after each request first.
     */
    private static HitRatios replay(String name, long[] trace, int pages, ConcurrentArc<Long> arc,
            SlackDivergence divergence) {
        ZfsPageCache<ZfsArc> specCache = ZfsPageCache.zfs(pages);
        ZfsArc spec = specCache.arc();
        long specHits = 0;
        long hits = 0;
        for (long page : trace) {
            specHits += specCache.access(page) ? 1 : 0;
            arc.tick(1);
            Outcome o = arc.read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false, Long::valueOf).outcome();
            hits += o.isHit() ? 1 : 0;
            if (!arc.options().isStepped()) {
                arc.awaitEvictorIdle();
            }
            divergence.afterStep(spec.size(), spec.targetSize(), spec.mruTarget(), arc);
        }
        HitRatios ratios = new HitRatios(name + " at " + pages + " pages", 100.0 * specHits / trace.length,
                100.0 * hits / trace.length);
        System.out.printf("D2 on %s (%s): hit ratio spec %.3f %%, concurrent %.3f %%%n", ratios.run(),
                arc.options().exactPGrowthCompare() ? "exact arc_p growth compare" : "upper-bound check",
                ratios.spec(), ratios.concurrent());
        return ratios;
    }
}
