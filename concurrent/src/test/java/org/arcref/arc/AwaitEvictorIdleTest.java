package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrentArc#awaitEvictorIdle()} returns only once an iteration of the evict zthr has ended, as its
 * contract says ({@code zthr_wait_cycle_done}), not as soon as {@code arc_evict_needed} reads FALSE: the zthr sets it
 * FALSE inside {@code arc_evict_cb}, under {@code arc_evict_lock}, before it releases the waiters and recomputes
 * {@code arc_need_free}. The test holds the zthr at that point, through the waiter queue's seam
 * {@link EvictWaiters#releaseAtEndOfPass()}: five 4 KiB blocks in a 16 KiB cache, then
 * {@code arc_reduce_target_size(0)}, which finds 20K above {@code arc_c} and wakes the zthr; its pass evicts 4K,
 * leaves {@code arc_size == arc_c}, so it ends eviction and reaches the held point. A thread that calls
 * {@code awaitEvictorIdle} then must not return: it waits (parked) in {@code zthr_wait_cycle_done} until the test
 * lets the zthr go on.
 */
class AwaitEvictorIdleTest {

    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096).withSublists(1)
            .withTunables(Tunables.defaults().withAbdScatterEnabled(false));
    private static final ArcOptions THREADED_EXACT = new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI),
            false, ArcOptions.ZFS_BUF_LOCKS);
    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final Set<Thread.State> STOPPED = EnumSet.of(Thread.State.WAITING, Thread.State.TIMED_WAITING,
            Thread.State.BLOCKED, Thread.State.TERMINATED);

    private final AtomicBoolean armed = new AtomicBoolean();
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch go = new CountDownLatch(1);

    @Test
    @DisplayName("awaitEvictorIdle waits for the zthr's iteration to end, not only for arc_evict_needed to read FALSE")
    void waitsForTheIterationInProgress() throws InterruptedException {
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), THREADED_EXACT,
                (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
                    @Override
                    void releaseAtEndOfPass() {
                        if (armed.compareAndSet(true, false)) {
                            held.countDown();
                            TimedWaits.awaitOrFail(go, LIMIT, "the test never let the evict zthr go on");
                        }
                        super.releaseAtEndOfPass();
                    }
                }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum)) {
            for (long key = 0; key < 5; key++) {
                arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
            }
            armed.set(true);
            arc.reduceTargetSize(0);
            assertTrue(held.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS),
                    "set-up: the evict zthr's pass must end eviction (20K over a 16K target) and reach the held point");

            Thread caller = new Thread(arc::awaitEvictorIdle, "awaitEvictorIdle");
            caller.start();
            long deadline = System.nanoTime() + LIMIT.toNanos();
            Thread.State state = caller.getState();
            while (!STOPPED.contains(state) && System.nanoTime() < deadline) {
                Thread.sleep(1);
                state = caller.getState();
            }
            go.countDown();
            caller.join(LIMIT.toMillis());
            assertNotEquals(Thread.State.TERMINATED, state, "awaitEvictorIdle returned while the evict zthr was still"
                    + " inside its iteration (arc_evict_needed FALSE, the waiters not yet released)");
            assertTrue(STOPPED.contains(state),
                    "the caller neither waited nor returned within " + LIMIT.toMillis() + " ms");
            assertFalse(caller.isAlive(), "awaitEvictorIdle did not return once the iteration ended");
        }
    }

}
