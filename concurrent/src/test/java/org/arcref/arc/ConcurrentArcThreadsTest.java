package org.arcref.arc;

import static org.arcref.arc.EvictionWaiterTest.CONFIG;
import static org.arcref.arc.EvictionWaiterTest.THREADED_EXACT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What the concurrent ARC's own threads and thread-facing locks promise beyond the operations' results: the evict
 * zthr's thread ends with the cache ({@code arc_fini} cancels it), a reap iteration leaves the reap zthr's lock free
 * for the next thread, and the wait times recorded for eviction waiters are real durations.
 */
class ConcurrentArcThreadsTest {

    private static final long LIMIT_MS = 5000;

    @Test
    @DisplayName("Z1: close() cancels the evict zthr, whose thread ends")
    void closeEndsTheEvictThread() throws InterruptedException {
        AtomicReference<Thread> evictThread = new AtomicReference<>();
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), THREADED_EXACT,
                (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
                    @Override
                    void addEvicted(long realEvicted) {
                        evictThread.compareAndSet(null, Thread.currentThread());
                        super.addEvicted(realEvicted);
                    }
                }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
        try {
            Thread reader = EvictionWaiterTest.reader(arc);
            reader.join(LIMIT_MS);
            assertFalse(reader.isAlive(), "L1: the reader still waits for eviction after " + LIMIT_MS + " ms");
            Thread zthr = evictThread.get();
            assertNotNull(zthr, "set-up: the reader's overflow must have run the evict zthr");
            assertTrue(zthr.isAlive(), "set-up: the evict zthr idles between passes");
            arc.close();
            zthr.join(LIMIT_MS);
            assertFalse(zthr.isAlive(), "Z1: the evict zthr's thread " + zthr.getName() + " outlived close()");
        } finally {
            arc.close();
        }
    }

    /**
     * With a single hash lock ({@code ArcOptions#hashLocks} 1) every header shares the lock of the reader's key. A
     * read that waits for eviction holds that lock while the evict zthr's pass runs, so the pass cannot take any
     * header's lock ({@code mutex_tryenter} fails) and counts a {@code mutex_miss} for each header it meets (arc.c
     * 4091, 4109); with nothing evicted it ends eviction and releases the waiter.
     */
    @Test
    @DisplayName("L1: the evict zthr counts a mutex_miss for a header whose hash lock a waiting reader holds")
    void evictionSkipsHeadersWhoseLockIsHeld() throws InterruptedException {
        ArcOptions oneLock = new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false, 1);
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), oneLock)) {
            Thread reader = EvictionWaiterTest.reader(arc);
            reader.join(LIMIT_MS);
            assertFalse(reader.isAlive(), "L1: the reader still waits for eviction after " + LIMIT_MS + " ms");
            assertTrue(arc.stat(ArcStat.EVICT_WAITS) > 0, "set-up: the reader must have waited");
            assertTrue(arc.stat(ArcStat.MUTEX_MISS) > 0, "a pass during a wait met only headers whose lock the "
                    + "waiting reader held, and counted no mutex_miss");
        }
    }

    @Test
    @DisplayName("reap zthr: an iteration releases the reap lock, so another thread's iteration runs")
    void reapIterationsReleaseTheirLock() throws Exception {
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            assertEquals(Outcome.IDLE, arc.reapStep(), "set-up: plentiful memory, nothing to reap");
            Future<Outcome> next = other.submit(arc::reapStep);
            try {
                assertEquals(Outcome.IDLE, next.get(LIMIT_MS, TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                throw new AssertionError("reap zthr: another thread's reapStep still waits for the reap lock after "
                        + LIMIT_MS + " ms: the first iteration kept it", e);
            }
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("L1: every eviction wait is recorded with its duration, no longer than the waiting reads took")
    void evictionWaitTimesAreTheWaitsDurations() throws InterruptedException {
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            long start = System.nanoTime();
            Thread reader = EvictionWaiterTest.reader(arc);
            reader.join(LIMIT_MS);
            long elapsed = System.nanoTime() - start;
            assertFalse(reader.isAlive(), "L1: the reader still waits for eviction after " + LIMIT_MS + " ms");
            WaitTimes waits = arc.evictionWaitTimes();
            assertTrue(waits.count() > 0, "set-up: the reader must have waited");
            assertEquals(arc.stat(ArcStat.EVICT_WAITS), waits.count(), "one recorded duration per evict_waits");
            assertTrue(waits.max() <= elapsed, "the longest recorded wait, " + waits.max()
                    + " ns, exceeds the " + elapsed + " ns all the reads took");
        }
    }
}
