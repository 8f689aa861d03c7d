package org.arcref.specs.arc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.workload.SyntheticWorkload;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsPageCache;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * D2, the bounded differential, for hit ratios and the aggsum: the concurrent ARC with the default mode's per-CPU
 * aggsum (its hot-path reads are bounds: {@code arc_is_overflowing} the lower one, the {@code arc_p} and
 * {@code arc_c} growth checks the upper one), driven by one thread in page mode, has a hit ratio within 0.5
 * points of the spec's on 200,000 requests of the synthetic workload. The evictor is stepped after each request,
 * as the spec's, so the test is deterministic and isolates the aggsum's slack. Only the hit-ratio half of D2:
 * the per-step bound on {@code arc_c}, {@code arc_p} and the state sizes is not checked.
 *
 * <p>Not asserted, because it depends on scheduling: with the evict zthr free-running (the full default mode)
 * one fast reader outpaces it and the overflow is evicted in batches; a pass takes from MRU at most
 * {@code anon + mru - arc_p} and the rest from MFU, where the spec, evicting about one page per request, takes
 * nearly all from MRU. Measured on 2 cores: 500 pages 22.5 % against the spec's 29.6 % (MFU ghost hits 16,361
 * against 998), 5,000 pages 42.98–43.65 % against 43.58 %. With the reader waiting for the zthr to go idle after
 * each request the ratios agree (9,583 against 9,493 hits on 30,000 requests at 500 pages), so the difference
 * comes from the asynchronous evictor, not from the policy code.
 */
class DifferentialD2Test {

    private static final int REQUESTS = 200_000;

    @ParameterizedTest(name = "D2: hit ratios within 0.5 points at {0} pages with a per-CPU aggsum")
    @ValueSource(ints = {500, 5_000})
    void d2HitRatiosAgree(int pages) {
        long[] trace = SyntheticWorkload.defaults().withLength(REQUESTS).generate();
        ZfsPageCache spec = new ZfsPageCache(pages);
        ArcOptions perCpuAggsum = new ArcOptions(false, null, false, ArcOptions.ZFS_BUF_LOCKS);
        ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE),
                MemoryModel.plentiful(), perCpuAggsum);
        long specHits = 0;
        long hits = 0;
        for (long page : trace) {
            specHits += spec.access(page) ? 1 : 0;
            arc.tick(1);
            Outcome o = arc.read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false, Long::valueOf).outcome();
            hits += o == Outcome.HIT_MRU || o == Outcome.HIT_MFU ? 1 : 0;
        }
        double specRatio = 100.0 * specHits / trace.length;
        double ratio = 100.0 * hits / trace.length;
        System.out.printf("D2 at %d pages: spec %.3f %%, concurrent (per-CPU aggsum) %.3f %%%n", pages, specRatio,
                ratio);
        assertTrue(Math.abs(specRatio - ratio) < 0.5, "D2: hit ratios differ by more than 0.5 points: spec "
                + specRatio + ", concurrent " + ratio);
    }
}
