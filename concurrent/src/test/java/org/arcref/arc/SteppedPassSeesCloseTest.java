package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * In stepped mode a pass of {@code arc_evict_cb} that runs while another thread closes the cache sees the cancel
 * ({@code zthr_iscancelled}), as the evict zthr's last pass does: it ends eviction ({@code arc_evict_needed} FALSE)
 * and releases every waiter, though by the numbers eviction would still be needed. The test places the close
 * between its two steps: {@code close()} has shut the evictor down and is held before it shuts the waiter queue down
 * (whose {@link EvictWaiters#shutdown()} would release the waiters anyway), while the reader's inline pass reaches
 * its end ({@link EvictWaiters#endPass}); both held through the waiter queue's seams.
 *
 * <p>The scenario, by hand. A 16 KiB cache ({@code arc_c = arc_c_min = arc_c_max}), one sublist, linear ABDs (no
 * private copies), the evictor run only inline, the clock at tick 0 (a prefetched block is then younger than its
 * 1000-tick minimum lifetime, and eviction skips it). Overflow levels as in {@code GhostHitRollbackTest}: SOME at
 * {@code arc_size >= 18K}, SEVERE at 20K, a waiter waits for {@code 4096 * 200 / 100 = 8K}.
 * <ol>
 *   <li>Key 1, 2 KiB, is read on demand; keys 2-5, 4 KiB each, are prefetched: each allocates below 18K (NONE),
 *       18K in all. {@code arc_p} grows from 8K to 12K (the read of key 3, at 10K &lt; 16K with anon + MRU = 10K) and
 *       to 16K (key 4, at 14K with anon + MRU = 14K &gt; 12K).</li>
 *   <li>Key 6, 2 KiB, is prefetched at 18K: SOME sets {@code arc_evict_needed}; 20K.</li>
 *   <li>Key 7, 4 KiB, is read on demand at 20K: SEVERE, a waiter for 8K. The inline pass: MRU target
 *       {@code MIN(20K - 16K, 0 + 20K - 16K) = 4K}; from the tail, key 1 is evicted (2K, to the MRU ghost list) and
 *       keys 2-6 are skipped; {@code arc_evict_count} = 2K does not release the waiter. MFU target {@code 18K - 16K}
 *       but nothing on MFU; the MRU ghost target {@code 18K + 2K - 16K = 4K} deletes key 1's ghost (2K). The pass
 *       evicted 4K and {@code arc_size} = 18K is still above {@code arc_c}: without the cancel, eviction stays
 *       needed and the waiter queued.</li>
 * </ol>
 */
class SteppedPassSeesCloseTest {

    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096).withSublists(1)
            .withTunables(Tunables.defaults().withAbdScatterEnabled(false)).withEvictorRunsAfterEachOperation(false);
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private final AtomicReference<ConcurrentArc<Long>> arcRef = new AtomicReference<>();
    private final AtomicBoolean armed = new AtomicBoolean();
    private final CountDownLatch closerHeld = new CountDownLatch(1);
    private final CountDownLatch closerGo = new CountDownLatch(1);
    private volatile Thread closer;
    private volatile boolean neededAfterPass = true;
    private volatile List<Long> waitersAfterPass;

    @Test
    @DisplayName("a stepped pass during close() sees the cancel: it ends eviction and releases every waiter")
    void passDuringCloseEndsEviction() throws InterruptedException {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic(),
                (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
                    @Override
                    void endPass(BooleanSupplier stillNeeded) {
                        if (armed.compareAndSet(true, false)) {
                            closer = new Thread(arcRef.get()::close, "closer");
                            closer.start();
                            TimedWaits.awaitOrFail(closerHeld, LIMIT,
                                    "close() never reached the waiter queue's shutdown");
                            super.endPass(stillNeeded);
                            neededAfterPass = evictNeeded();
                            waitersAfterPass = counts();
                            closerGo.countDown();
                            TimedWaits.joinOrFail(closer, LIMIT);
                            return;
                        }
                        super.endPass(stillNeeded);
                    }

                    @Override
                    void shutdown() {
                        if (Thread.currentThread() == closer) {
                            closerHeld.countDown();
                            TimedWaits.awaitOrFail(closerGo, LIMIT, "the test never let close() go on");
                        }
                        super.shutdown();
                    }
                }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
        arcRef.set(arc);
        assertEquals(Outcome.MISS, read(arc, 1, 2048, ReadKind.DEMAND));
        for (long key = 2; key <= 5; key++) {
            assertEquals(Outcome.MISS, read(arc, key, 4096, ReadKind.PREFETCH));
        }
        assertEquals(Outcome.MISS, read(arc, 6, 2048, ReadKind.PREFETCH));
        ArcSnapshot before = arc.snapshot();
        assertEquals(20L << 10, before.size(), "set-up: 20 KiB cached");
        assertEquals(16L << 10, before.p(), "set-up: arc_p grew twice, to 16K");
        assertTrue(before.evictNeeded(), "set-up: the prefetch of key 6 at 18K set arc_evict_needed");

        armed.set(true);
        assertEquals(Outcome.MISS, read(arc, 7, 4096, ReadKind.DEMAND),
                "the read in flight while the cache closes completes");
        ArcSnapshot after = arc.snapshot();
        assertEquals(1, after.stats().get(ArcStat.EVICTIONS), "set-up: the pass evicted key 1");
        assertEquals(1, after.stats().get(ArcStat.DELETED), "set-up: and deleted its ghost");
        assertEquals(5, after.stats().get(ArcStat.EVICT_SKIP), "set-up: and skipped the young prefetched keys 2-6");
        assertFalse(neededAfterPass,
                "the pass saw the cancel: it must end eviction though 18K is still above the 16K target");
        assertEquals(List.of(), waitersAfterPass, "the pass saw the cancel: it must release every waiter");
    }

    private static Outcome read(ConcurrentArc<Long> arc, long key, long size, ReadKind kind) {
        return arc.read(key, size, kind, false, k -> k).outcome();
    }


}
