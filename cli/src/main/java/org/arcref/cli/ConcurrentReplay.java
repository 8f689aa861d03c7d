package org.arcref.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.differential.Lockstep;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsPageCache;

/**
 * Replays a page trace through one {@link ConcurrentArc} in its default mode (per-CPU aggsum, the evict zthr
 * running on its own thread) from several threads, partitioned by interleaving: thread {@code t} of {@code n}
 * replays requests {@code t, t+n, t+2n, …} in order, each a {@code tick 1} and a demand read of one 4 KiB page
 * (the spec's page mode, {@link ArcConfig#pages}, with ZFS's default sublist count). A sampler thread records the
 * aggsum's gap ({@code upperBound - lowerBound} of {@code arc_size}, read one after the other) every 100 µs and
 * reports progress.
 */
final class ConcurrentReplay {

    private static final long SAMPLE_NANOS = 100_000;

    private ConcurrentReplay() {
    }

    /**
     * @param requests the pages
     * @param pages the cache size in pages
     * @param threads the replaying threads
     * @param stop polled between requests; true ends the replay early (Ctrl-C)
     * @param progress told the requests done so far, from the sampler thread
     * @return the hit ratio, throughput, eviction waits and largest aggsum gap
     * @throws IllegalStateException if a read fails or returns a wrong value
     */
    static ConcurrentReplayResult run(long[] requests, int pages, int threads, BooleanSupplier stop,
            LongConsumer progress) {
        ArcConfig config = ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE).withSublists(ConcurrentArc.defaultSublists());
        AtomicLong hits = new AtomicLong();
        LongAdder done = new LongAdder();
        AtomicLong maxGap = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.zfs())) {
            List<Thread> workers = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                int first = t;
                Thread w = new Thread(() -> {
                    try {
                        long myHits = 0;
                        for (int i = first; i < requests.length && !stop.getAsBoolean(); i += threads) {
                            long page = requests[i];
                            arc.tick(1);
                            var r = arc.read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false,
                                    Lockstep::valueOf);
                            if (!Lockstep.valueOf(page).equals(r.value())) {
                                throw new PropertyViolation(Property.N1, "read of page " + page + " returned "
                                        + r.value(), "");
                            }
                            if (r.outcome().isHit()) {
                                myHits++;
                            }
                            done.increment();
                        }
                        hits.addAndGet(myHits);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "replay-" + t);
                workers.add(w);
                w.start();
            }
            boolean running;
            do {
                running = workers.stream().anyMatch(Thread::isAlive);
                maxGap.accumulateAndGet(arc.sizeAggsum().upperBound() - arc.sizeAggsum().lowerBound(), Math::max);
                progress.accept(done.sum());
                if (running) {
                    LockSupport.parkNanos(SAMPLE_NANOS);
                }
            } while (running);
            long nanos = System.nanoTime() - start;
            if (!failures.isEmpty()) {
                Throwable f = failures.peek();
                throw new IllegalStateException("concurrent replay failed at " + pages + " pages: " + f, f);
            }
            return new ConcurrentReplayResult(pages, threads, done.sum(), hits.get(), nanos, arc.evictionWaitTimes(),
                    maxGap.get());
        }
    }
}
