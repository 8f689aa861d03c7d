package org.arcref.bench.cache;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.workload.SyntheticWorkload;
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

/**
 * Experiment E3, throughput: {@link ArcCache} (ConcurrentArc, ZFS default mode), {@link CaffeineCache} and
 * {@link LockedSpecCache} (the spec behind one lock) on the same Zipf workload: {@value #KEY_SPACE} keys, exponent
 * {@value #EXPONENT}, a cache of {@value #PAGES} pages, {@code readPercent} % reads and the rest writes (see each
 * cache for what a write is). Run at 1, 2 and 4 threads by {@code JmhExperiment}; the score is operations per
 * microsecond over all threads.
 *
 * <p>{@code scatter} is {@code zfs_abd_scatter_enabled} for the two ARCs (true is the Linux default): with it, a
 * page-sized header's data is a scatter ABD that no buffer can share, so every demand hit allocates a private copy
 * ({@code arc_get_data_impl}, with {@code arc_adapt} and the overflow check) and frees it; without it, the hit's
 * buffer shares the header's linear data. Caffeine ignores it: its runs under both values are the same
 * configuration, measured twice.
 *
 * <p>Every thread walks the same pre-drawn key sequence from its own offset, and draws
 * read-or-write from its own generator. The cache is created per trial and warms during the warm-up iterations.
 * The secondary result {@code rejected} counts the ARC operations rejected because another thread's operation on
 * the same key came in between ({@link ArcCache}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class CacheBenchmark {

    static final int KEY_SPACE = 1 << 20;
    static final double EXPONENT = 0.99;
    static final int PAGES = 1 << 16;
    private static final int SEQUENCE = 1 << 22;
    /**
     * Pure Zipf requests of the synthetic workload (no scans, no loops) over ranks {@code [0, KEY_SPACE)}, each
     * scrambled by multiplying with an odd constant (a bijection on longs), so that popular keys spread over the
     * hash locks and sublists.
     */
    private static final long[] KEYS = Arrays.stream(new SyntheticWorkload(SEQUENCE, KEY_SPACE + 2, KEY_SPACE,
            EXPONENT, 0, 0, 1, SEQUENCE, 42).generate()).map(k -> k * 0x9E37_79B9_7F4A_7C15L).toArray();

    @Param({"arc", "caffeine", "lockedSpec"})
    public String cache;

    @Param({"95", "50"})
    public int readPercent;

    @Param({"true", "false"})
    public boolean scatter;

    BenchCache target;
    private final AtomicInteger threadIds = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() {
        target = switch (cache) {
            case "arc" -> new ArcCache(PAGES, scatter);
            case "caffeine" -> new CaffeineCache(PAGES);
            case "lockedSpec" -> new LockedSpecCache(PAGES, scatter);
            default -> throw new IllegalArgumentException("cache must be arc, caffeine or lockedSpec, was " + cache);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        target.close();
    }

    /** A thread's position in the key sequence, its read/write generator and its count of rejected operations. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cursor {
        public long rejected;
        int index;
        long random;

        @Setup(Level.Trial)
        public void setUp(CacheBenchmark bench) {
            int id = bench.threadIds.getAndIncrement();
            index = (int) ((id * 0x9E37_79B9L) & (SEQUENCE - 1));
            random = 0x5DEE_CE66_DL + id;
        }

        @Setup(Level.Iteration)
        public void clear() {
            rejected = 0;
        }

        boolean nextIsRead(int readPercent) {
            random = random * 6_364_136_223_846_793_005L + 1_442_695_040_888_963_407L;
            return (int) ((random >>> 33) % 100) < readPercent;
        }

        long nextKey() {
            index = (index + 1) & (SEQUENCE - 1);
            return KEYS[index];
        }
    }

    @Benchmark
    public Object operation(Cursor cursor) {
        long key = cursor.nextKey();
        Object r = cursor.nextIsRead(readPercent) ? target.read(key) : target.write(key);
        if (r instanceof IllegalArgumentException) {
            cursor.rejected++;
        }
        return r;
    }
}
