package org.arcref.bench.aggsum;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.aggsum.AggSumCounters;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Experiment E2, second half: the cost of {@code arc_get_data_impl}'s {@code arc_p} growth check in the
 * {@link ConcurrentArc}, 2.1.1's {@code aggsum_upper_bound(&arc_size) < arc_c} ({@code exactCompare=false})
 * against zfs ≤ 0.8's {@code aggsum_compare(&arc_size, arc_c) < 0} ({@code exactCompare=true}).
 *
 * <p>Every call is a demand read of a block never seen before, so every call is a miss and allocates once: the
 * score is the time per allocation, including the loader, the insertion and the share of eviction the calling
 * thread does (none: the evict zthr runs at {@code defclsyspri}, {@link ArcOptions#zfs()}) or waits for. The cache
 * is {@value #PAGES} pages of {@value #PAGE} bytes ({@link ArcConfig#pages}), full after the first moments, so
 * the size hovers at {@code arc_c}, where the bounds alone cannot decide the compare.
 *
 * <p>The secondary results ({@link FlushCounts}) are the aggsum's counters per allocation over each iteration:
 * buckets flushed (by the check and by the evictor's own compare and value) and compare calls.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ArcPGrowthBenchmark {

    static final int PAGES = 16_384;
    static final long PAGE = 4096;

    @Param({"false", "true"})
    public boolean exactCompare;

    ConcurrentArc<Long> arc;
    private final AtomicLong threadIds = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        arc = new ConcurrentArc<>(ArcConfig.pages(PAGES, PAGE).withSublists(ConcurrentArc.defaultSublists()),
                MemoryModel.plentiful(), ArcOptions.zfs().withExactPGrowthCompare(exactCompare));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        arc.close();
    }

    /** Each thread reads its own never-repeating keys. */
    @State(Scope.Thread)
    public static class Keys {
        long next;

        @Setup(Level.Trial)
        public void setUp(ArcPGrowthBenchmark bench) {
            next = bench.threadIds.getAndIncrement() << 48;
        }
    }

    /**
     * The aggsum's and the ARC's counters over one iteration, each thread reporting its share (the global delta
     * divided by the thread count), so that JMH's sum over threads is the global delta.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class FlushCounts {
        public double allocations;
        public double bucketsFlushed;
        public double compareCalls;
        private AggSumCounters start;
        private long startMisses;

        @Setup(Level.Iteration)
        public void begin(ArcPGrowthBenchmark bench) {
            start = bench.arc.sizeAggsum().counters();
            startMisses = bench.arc.stat(ArcStat.MISSES);
            allocations = 0;
            bucketsFlushed = 0;
            compareCalls = 0;
        }

        @TearDown(Level.Iteration)
        public void end(ArcPGrowthBenchmark bench, BenchmarkParams params) {
            AggSumCounters now = bench.arc.sizeAggsum().counters();
            double threads = params.getThreads();
            allocations = (bench.arc.stat(ArcStat.MISSES) - startMisses) / threads;
            bucketsFlushed = (now.bucketsFlushed() - start.bucketsFlushed()) / threads;
            compareCalls = (now.compareCalls() - start.compareCalls()) / threads;
        }
    }

    @Benchmark
    public Long allocate(Keys keys, FlushCounts counts) {
        return arc.read(keys.next++, PAGE, ReadKind.DEMAND, false, Long::valueOf).value();
    }
}
