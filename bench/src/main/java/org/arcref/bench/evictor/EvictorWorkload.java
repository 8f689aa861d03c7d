package org.arcref.bench.evictor;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.arcref.arc.ArcOptions;
import org.arcref.bench.DriverCommand;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.WaitTimes;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zthr.ZthrPriority;

/**
 * One run of experiment E1 in this JVM: a mixed read/write workload on a {@link ConcurrentArc} whose evict zthr
 * runs at a given {@link ZthrPriority}, with four application threads per core and a working set
 * {@value #WORKING_SET_FACTOR} times the cache; prints one CSV line ({@link #HEADER}) to stdout.
 *
 * <p>Usage: {@code EvictorWorkload PRIORITY WARMUP_SECONDS SECONDS} (priority {@code MINCLSYSPRI},
 * {@code DEFCLSYSPRI} or {@code MAXCLSYSPRI}). Whether the priority reaches Linux depends on this JVM's flags
 * (see {@link ZthrPriority}); the CSV reports the evictor thread's nice value as the kernel shows it.
 *
 * <p>Each application thread draws keys uniformly from the working set and does {@value #READ_PERCENT} % demand
 * reads (a miss loads and allocates) and otherwise a write (free, new anonymous buffer, write completion, as in
 * E3's {@code ArcCache}; a write that another thread's operation on the key interrupts is rejected by the ARC and
 * counted). Measured, over {@code SECONDS} after {@code WARMUP_SECONDS}: completed operations; the latency of
 * every allocating operation (a read that missed or ghost-hit, a write that succeeded; percentiles from a
 * {@link WaitTimes} per thread, at most 12.5 % above the true value), which contains
 * {@code arc_wait_for_eviction}'s wait whenever the cache was severely over its target, and also the time a
 * runnable thread waits for a core; the {@code evict_waits} count; and the evict zthr's CPU time
 * ({@link ThreadMXBean#getThreadCpuTime}).
 */
public final class EvictorWorkload {

    /** The CSV columns of the line printed. */
    public static final String HEADER = "priority,threads,seconds,operations,opsPerSecond,allocations,"
            + "allocP50us,allocP99us,allocMaxUs,evictWaits,rejected,evictorCpuMs,evictorNice";

    static final int CACHE_PAGES = 16_384;
    static final int WORKING_SET_FACTOR = 4;
    static final int READ_PERCENT = 70;
    static final long PAGE = 4096;
    private static final String EVICTOR_THREAD = "arc_evict";

    /** The command line: {@code PRIORITY WARMUP_SECONDS SECONDS}. */
    public static final DriverCommand COMMAND = new DriverCommand("EvictorWorkload PRIORITY WARMUP_SECONDS SECONDS", 3, 3,
            EvictorWorkload::drive);

    private EvictorWorkload() {
    }

    /**
     * Runs the workload and prints its CSV header and line; see the class comment for the arguments.
     *
     * @param args {@code PRIORITY WARMUP_SECONDS SECONDS}
     * @throws Exception if the run is interrupted
     */
    public static void main(String[] args) throws Exception {
        COMMAND.main(args);
    }

    private static void drive(String[] args) throws InterruptedException {
        ZthrPriority priority = priority(args[0]);
        double warmup = DriverCommand.seconds("WARMUP_SECONDS", args[1], false);
        double seconds = DriverCommand.seconds("SECONDS", args[2], true);
        System.out.println(HEADER);
        System.out.println(run(priority, warmup, seconds));
    }

    private static ZthrPriority priority(String text) {
        for (ZthrPriority p : ZthrPriority.values()) {
            if (p.name().equals(text)) {
                return p;
            }
        }
        throw DriverCommand.bad("PRIORITY", "must be one of " + List.of(ZthrPriority.values()), text);
    }

    /** Runs the workload and returns its CSV line. */
    static String run(ZthrPriority priority, double warmupSeconds, double seconds) throws InterruptedException {
        int threads = 4 * Runtime.getRuntime().availableProcessors();
        int keySpace = CACHE_PAGES * WORKING_SET_FACTOR;
        ConcurrentArc<Long> arc = new ConcurrentArc<>(
                ArcConfig.pages(CACHE_PAGES, PAGE).withSublists(ConcurrentArc.defaultSublists()),
                MemoryModel.plentiful(), ArcOptions.zfs().withEvictorPriority(priority));
        try {
            Worker[] workers = new Worker[threads];
            CountDownLatch done = new CountDownLatch(threads);
            for (int i = 0; i < threads; i++) {
                workers[i] = new Worker(arc, keySpace, 1000L + i, done);
            }
            for (Worker w : workers) {
                w.start();
            }
            Thread.sleep((long) (warmupSeconds * 1000));
            Thread evictor = findThread(EVICTOR_THREAD);
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long cpu0 = mx.getThreadCpuTime(evictor.getId());
            long waits0 = arc.stat(ArcStat.EVICT_WAITS);
            long t0 = System.nanoTime();
            for (Worker w : workers) {
                w.measuring = true;
            }
            Thread.sleep((long) (seconds * 1000));
            for (Worker w : workers) {
                w.measuring = false;
            }
            long elapsed = System.nanoTime() - t0;
            long cpu1 = mx.getThreadCpuTime(evictor.getId());
            long waits1 = arc.stat(ArcStat.EVICT_WAITS);
            String nice = niceOf(EVICTOR_THREAD);
            for (Worker w : workers) {
                w.running = false;
            }
            done.await();
            WaitTimes alloc = new WaitTimes();
            long ops = 0;
            long rejected = 0;
            for (Worker w : workers) {
                alloc.addAll(w.allocLatency);
                ops += w.operations;
                rejected += w.rejected;
            }
            double secs = elapsed / 1e9;
            return String.format(Locale.ROOT, "%s,%d,%.3f,%d,%.0f,%d,%.1f,%.1f,%.1f,%d,%d,%.1f,%s", priority, threads,
                    secs, ops, ops / secs, alloc.count(), alloc.percentile(0.5) / 1e3, alloc.percentile(0.99) / 1e3,
                    alloc.max() / 1e3, waits1 - waits0, rejected, (cpu1 - cpu0) / 1e6, nice);
        } finally {
            arc.close();
        }
    }

    /** One application thread. Its counters are read after it stops ({@code done}). */
    private static final class Worker extends Thread {
        private final ConcurrentArc<Long> arc;
        private final int keySpace;
        private final SplittableRandom random;
        private final CountDownLatch done;
        final WaitTimes allocLatency = new WaitTimes();
        volatile boolean measuring;
        volatile boolean running = true;
        long operations;
        long rejected;

        Worker(ConcurrentArc<Long> arc, int keySpace, long seed, CountDownLatch done) {
            super("e1-app-" + seed);
            setDaemon(true);
            this.arc = arc;
            this.keySpace = keySpace;
            this.random = new SplittableRandom(seed);
            this.done = done;
        }

        @Override
        public void run() {
            try {
                while (running) {
                    long key = random.nextInt(keySpace);
                    boolean read = random.nextInt(100) < READ_PERCENT;
                    long start = System.nanoTime();
                    boolean allocated = read ? readAllocated(key) : writeAllocated(key);
                    long took = System.nanoTime() - start;
                    if (measuring) {
                        operations++;
                        if (allocated) {
                            allocLatency.record(took);
                        }
                    }
                }
            } finally {
                done.countDown();
            }
        }

        private boolean readAllocated(long key) {
            try {
                Outcome o = arc.read(key, PAGE, ReadKind.DEMAND, false, Long::valueOf).outcome();
                return !o.isHit();
            } catch (IllegalArgumentException e) {
                countRejected();
                return false;
            }
        }

        private boolean writeAllocated(long key) {
            try {
                arc.free(key);
                arc.write(key, PAGE, key);
                arc.completeWrite(key, false);
                return true;
            } catch (IllegalArgumentException e) {
                countRejected();
                return false;
            }
        }

        private void countRejected() {
            if (measuring) {
                rejected++;
            }
        }
    }

    private static Thread findThread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        throw new IllegalStateException("thread " + name + " must be running, was not found");
    }

    /** The nice value (field 19 of /proc/self/task/TID/stat) of the thread named {@code name}, or "NA". */
    static String niceOf(String name) {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return "NA";
        }
        List<String> found = new ArrayList<>();
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) list::iterator) {
                Path comm = task.resolve("comm");
                if (Files.exists(comm) && Files.readString(comm).trim().equals(name)) {
                    String stat = Files.readString(task.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    found.add(fields[16]);
                }
            }
        } catch (IOException e) {
            return "NA";
        }
        return found.size() == 1 ? found.get(0) : "NA";
    }
}
