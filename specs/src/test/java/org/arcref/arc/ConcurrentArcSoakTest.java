package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.soak.Soak;
import org.arcref.soak.SoakResult;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * N1 and L1 under concurrency: the {@link Soak} (four threads of random reads of all kinds with holds, writes,
 * completions, releases, frees, shrinks and ticks on a cache much smaller than the working set, with the evict
 * zthr running) for {@value #DEFAULT_SECONDS} s (system property {@code arc.soak.seconds}) reports no violation:
 * every read returns its key's value (N1), no operation throws or takes more than 5 s, which bounds every wait
 * for eviction (L1), and after {@link ConcurrentArc#close()} (quiescence) {@code arc_size} equals the sum of the
 * state sizes and the bytes the headers hold, and each state's sizes the sums over its headers (N1, R4). The soak
 * bounds its own waits (a hung operation or {@code close()} is a named violation); the test's 10-minute limit is a
 * backstop, long enough for {@code arc.soak.seconds} up to about 500.
 */
class ConcurrentArcSoakTest {

    static final int DEFAULT_SECONDS = 60;
    private static final int THREADS = 4;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    @DisplayName("N1, L1: accounting adds up and no wait exceeds 5 s after a concurrent soak")
    void soak() throws InterruptedException {
        long seconds = Long.getLong("arc.soak.seconds", DEFAULT_SECONDS);
        ConcurrentArc<Long> arc = new ConcurrentArc<>(soakConfig(), MemoryModel.plentiful(), ArcOptions.zfs());
        SoakResult soak = new Soak(THREADS).run(arc, TimeUnit.SECONDS.toNanos(seconds), () -> false,
                new AtomicLong());
        ArcSnapshot s = soak.snapshot();
        System.out.printf("soak: %d threads, %d s, %d operations, %d evictions, %d evictor runs, %d eviction waits"
                        + " (longest %.1f ms), %d mutex misses, longest operation %.1f ms, arc_c %d, arc_size %d%n",
                THREADS, seconds, soak.ops(), s.stats().get(ArcStat.EVICTIONS), s.stats().get(ArcStat.EVICTOR_RUNS),
                s.stats().get(ArcStat.EVICT_WAITS), soak.evictionWaits().max() / 1e6,
                s.stats().get(ArcStat.MUTEX_MISS), soak.longestOpNanos() / 1e6, s.c(), s.size());
        if (!soak.violations().isEmpty()) {
            throw new AssertionError("N1, L1, R4: " + soak.violations(), soak.firstFailure());
        }
        assertTrue(s.stats().get(ArcStat.EVICTIONS) > 0 && s.stats().get(ArcStat.EVICT_WAITS) > 0,
                "the soak must evict and make threads wait: " + s.stats());
        assertEquals(s.stats().get(ArcStat.EVICT_WAITS), soak.evictionWaits().count(),
                "every eviction wait is timed");
        assertEquals(0, arc.sizeAggsum().value() - s.size(), "arc_size changed after close");
    }

    /** The soak's cache: 256 KiB to 512 KiB, blocks up to 4 KiB, ZFS's default sublist count. */
    static ArcConfig soakConfig() {
        return ArcConfig.small(256L << 10, 512L << 10, 4096).withSublists(ConcurrentArc.defaultSublists());
    }

    @Test
    @DisplayName("Z1, L1: a soak whose close() hangs fails naming the property and where close() waits")
    void soakReportsAHangingClose() throws InterruptedException {
        ConcurrentArc<Long> arc = BrokenArcs.closeHangs(soakConfig(), MemoryModel.plentiful(), ArcOptions.zfs());
        SoakResult soak = new Soak(THREADS).run(arc, TimeUnit.SECONDS.toNanos(1), () -> false, new AtomicLong());
        assertEquals(1, soak.violations().size(), "one violation: " + soak.violations());
        PropertyViolation violation = soak.violations().get(0);
        assertEquals(Property.Z1, violation.property(), violation.getMessage());
        assertTrue(violation.detail().startsWith("close() still running " + Soak.CLOSE_SECONDS + " s after it was"
                + " called"), violation.getMessage());
        assertTrue(violation.state().contains("org.arcref.arc.ConcurrentArc.close("), violation.getMessage());
    }

    @Test
    @DisplayName("L1: close() releases every eviction waiter and later operations fail clearly")
    void closeReleasesEveryWaiter() throws InterruptedException {
        ArcConfig config = ArcConfig.small(64L << 10, 64L << 10, 4096).withSublists(ConcurrentArc.defaultSublists());
        ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.zfs());
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        AtomicLong rejectedAfterClose = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long first = 1_000_000L * t;
            Thread thread = new Thread(() -> {
                try {
                    for (long key = first; ; key++) {
                        arc.read(key, 4096, ReadKind.DEMAND, key % 3 == 0, Long::valueOf);
                    }
                } catch (IllegalStateException e) {
                    if (e.getMessage().equals("ConcurrentArc must be open, was closed")) {
                        rejectedAfterClose.incrementAndGet();
                    } else {
                        unexpected.add(e);
                    }
                } catch (Throwable e) {
                    unexpected.add(e);
                }
            }, "close-" + t);
            threads.add(thread);
            thread.start();
        }
        Thread.sleep(1000);
        long waits = arc.stat(ArcStat.EVICT_WAITS);
        arc.close();
        for (Thread thread : threads) {
            thread.join(5000);
            assertTrue(!thread.isAlive(), thread.getName() + " did not return within 5 s of close() (L1)");
        }
        System.out.printf("close: %d eviction waits before close, %d threads rejected after close%n", waits,
                rejectedAfterClose.get());
        assertTrue(unexpected.isEmpty(), "unexpected failure: " + unexpected.peek());
        assertEquals(THREADS, rejectedAfterClose.get());
        assertTrue(waits > 0, "the threads must have waited for eviction");
    }
}
