import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.arcref.bench.cache.CacheBenchmark;

/**
 * E3's read/write mix at one thread, scored per µs of the process's CPU time instead of wall-clock time: the
 * bisect of E3's throughput loss (docs/performance.md, E3). Another process's use of the cores does not count, which it does
 * in JMH's score; the benchmark thread, the evict zthr, GC and JIT all do.
 *
 * <p>Usage, with any commit's {@code benchmarks.jar}: {@code java -cp bench/target/benchmarks.jar
 * bench/scripts/CacheCpuTime.java CACHE WARMUP_S ROUNDS [SCATTER]}; prints the median of ROUNDS 1-s rounds after
 * WARMUP_S seconds, in operations per CPU-µs and per wall-µs. SCATTER sets {@code CacheBenchmark.scatter} where the
 * commit has it.
 */
public class CacheCpuTime {

    /** A thousand operations in a method of its own, so that the JIT compiles it whole (no on-stack replacement). */
    static long chunk(CacheBenchmark b, CacheBenchmark.Cursor c) {
        long nulls = 0;
        for (int i = 0; i < 1000; i++) {
            nulls += b.operation(c) == null ? 1 : 0;
        }
        return nulls;
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CacheBenchmark b = new CacheBenchmark();
        b.cache = args[0];
        b.readPercent = 95;
        if (args.length > 3) {
            CacheBenchmark.class.getField("scatter").set(b, Boolean.parseBoolean(args[3]));
        }
        b.setUp();
        CacheBenchmark.Cursor c = new CacheBenchmark.Cursor();
        c.setUp(b);
        long sink = 0;
        long end = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000_000L;
        while (System.nanoTime() < end) {
            sink += chunk(b, c);
        }
        int rounds = Integer.parseInt(args[2]);
        double[] cpu = new double[rounds];
        double[] wall = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long c0 = os.getProcessCpuTime();
            long w0 = System.nanoTime();
            long ops = 0;
            while (System.nanoTime() - w0 < 1_000_000_000L) {
                sink += chunk(b, c);
                ops += 1000;
            }
            cpu[r] = ops * 1000.0 / (os.getProcessCpuTime() - c0);
            wall[r] = ops * 1000.0 / (System.nanoTime() - w0);
        }
        b.tearDown();
        Arrays.sort(cpu);
        Arrays.sort(wall);
        System.out.printf("%s cpu %.3f wall %.3f (null results %d)%n", args[0], cpu[rounds / 2], wall[rounds / 2], sink);
    }
}
