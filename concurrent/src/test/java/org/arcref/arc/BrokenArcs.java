package org.arcref.arc;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.LowerBoundAsUpperAggSum;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Tunables;

/**
 * Deliberately broken variants of {@link ConcurrentArc} (test sources only), which the differential property D1
 * and the waiter tests must catch. Each is a static factory of the signature {@code (ArcConfig, MemoryModel,
 * ArcOptions)}, so that the JCStress scenarios of {@code stress} can name it ({@code org.arcref.stress.Variants}).
 */
public final class BrokenArcs {

    private BrokenArcs() {
    }

    /** The waiter queue of {@link #waiterCountWithoutMax}: {@code aew_count = last + amount} (#11285). */
    static final ConcurrentArc.WaitersFactory WAITER_COUNT_WITHOUT_MAX = (m, sysFree, wake) ->
            new EvictWaiters(m, sysFree, wake) {
                @Override
                long waiterCount(long last, long evictCount, long amount) {
                    return last + amount;
                }
            };

    /** The waiter queue of {@link #lostWakeup}: {@code ensureEvicting} does nothing. */
    static final ConcurrentArc.WaitersFactory SLEEPS_WITHOUT_WAKING = (m, sysFree, wake) ->
            new EvictWaiters(m, sysFree, wake) {
                @Override
                void ensureEvicting() {
                }
            };

    /**
     * The waiter queue of wake conditions that differ, the pattern of #3616 (0.6.4 woke waiters on one condition and
     * stopped its reclaim thread on another): a pass that ends eviction ({@code arc_evict_needed} false: nothing
     * evicted, no longer over the target, or cancelled) releases only the waiters whose count was reached, the
     * per-visit condition, instead of all of them; the others sleep with nobody evicting for them (L1; model M3's
     * {@code BROKEN_3616}, replayed on {@code WaiterProtocolRig}). In 0.6.4 a one-second timer made the wakeup late;
     * 2.1's evict zthr has no timer, so here it is lost unless a later allocation wakes the evictor.
     */
    static final ConcurrentArc.WaitersFactory WAKE_CONDITIONS_DIFFER = (m, sysFree, wake) ->
            new EvictWaiters(m, sysFree, wake) {
                @Override
                void releaseAtEndOfPass() {
                    releaseReached();
                }
            };

    /**
     * The waiter count of zfs before #11397 without its assertion, the bug of #11285: {@code aew_count =
     * last + amount} instead of {@code MAX(last, arc_evict_count) + amount}, so a waiter queued on an empty list
     * is satisfied by bytes evicted before it arrived and is released too early.
     */
    public static <V> ConcurrentArc<V> waiterCountWithoutMax(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, WAITER_COUNT_WITHOUT_MAX, AtomicLong::addAndGet,
                ConcurrentArc::newSizeAggsum);
    }

    /**
     * A waiter that sleeps without waking the evictor: an eviction waiter goes to sleep without making sure the
     * evictor was told there is work ({@code arc_evict_needed} set and the zthr woken), and the overflow path does
     * not tell it either; unless something else wakes the evictor, the waiter sleeps for ever (L1; model M3's
     * {@code BROKEN_NO_WAKE}).
     */
    public static <V> ConcurrentArc<V> lostWakeup(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, SLEEPS_WITHOUT_WAKING, AtomicLong::addAndGet,
                ConcurrentArc::newSizeAggsum);
    }

    /**
     * A size update outside the lock that protects it: every {@code arcs_size} and {@code arcs_esize} update is a
     * plain read, then a write of the sum, instead of one atomic add (in ZFS a {@code zfs_refcount_add_many} under
     * the refcount's own lock, or an atomic add). Two threads updating the same state's size at once (two hash
     * locks, or a hash lock and the evictor) can lose one update, so the sizes drift from the headers (N1, R4).
     */
    public static <V> ConcurrentArc<V> unlockedSizeUpdate(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, EvictWaiters::new,
                (counter, delta) -> counter.set(counter.get() + delta), ConcurrentArc::newSizeAggsum);
    }

    /**
     * Growth checks that read the wrong bound: the lower one ({@link LowerBoundAsUpperAggSum}) where 2.1.1 reads
     * the upper, so {@code arc_get_data_impl} grows {@code arc_p} while the exact size may already be at
     * {@code arc_c}: more often than exact arithmetic would, a difference the slack cannot explain (property D2;
     * D1, with an exact aggsum, cannot see it). With an exact aggsum the variant equals the production class.
     */
    public static <V> ConcurrentArc<V> growthOnTheLowerBound(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, EvictWaiters::new, AtomicLong::addAndGet,
                o -> o.exactSize() ? AggSum.exact(0) : LowerBoundAsUpperAggSum.create(0));
    }

    /**
     * An evictor that dies: its first sublist visit that evicts something fails an assertion
     * ({@code addEvicted} throws an {@link AssertionError}, standing for a failed {@code ASSERT} in
     * {@code arc_evict_cb}), which ends the evict zthr's thread. So that the death meets a sleeping waiter every
     * time, that visit first waits (up to 10 s, outside {@code arc_evict_lock}) until some allocation has queued
     * one. Waiters then have nobody to release them unless the death is noticed (L1).
     */
    public static <V> ConcurrentArc<V> evictorDies(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            private final CountDownLatch queued = new CountDownLatch(1);

            @Override
            Waiter enqueue(long amount) {
                Waiter w = super.enqueue(amount);
                queued.countDown();
                return w;
            }

            @Override
            void addEvicted(long realEvicted) {
                if (realEvicted > 0) {
                    try {
                        queued.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new AssertionError("assertion failure injected into arc_evict_cb by the test");
                }
                super.addEvicted(realEvicted);
            }
        }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    /**
     * A {@code close()} that never returns: the waiter queue's shutdown blocks for ever, as a close would behind an
     * evict zthr that never ends its pass. Only close hangs; operations are those of the production class.
     */
    public static <V> ConcurrentArc<V> closeHangs(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            @Override
            void shutdown() {
                while (true) {
                    LockSupport.park(this);
                }
            }
        }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    /**
     * An esize update dropped: linking a header on the MRU list ({@code multilist_insert} in
     * {@code arc_change_state} or {@code remove_reference}) does not add its size to MRU's {@code arcs_esize}, so
     * the evictable size drifts from the listed headers (R4) and eviction targets go wrong. Built through the
     * {@code SizeUpdate} seam, which sees only counters: the MRU esize counter is found in the new ARC by
     * reflection and its increments are dropped.
     */
    public static <V> ConcurrentArc<V> droppedEsizeUpdate(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        Set<AtomicLong> dropped = Collections.newSetFromMap(new IdentityHashMap<>());
        ConcurrentArc<V> arc = new ConcurrentArc<>(config, memory, options, EvictWaiters::new, (counter, delta) -> {
            if (!(delta > 0 && dropped.contains(counter))) {
                counter.addAndGet(delta);
            }
        }, ConcurrentArc::newSizeAggsum);
        try {
            Field esize = ConcurrentArc.class.getDeclaredField("stateEsize");
            esize.setAccessible(true);
            dropped.add(((AtomicLong[]) esize.get(arc))[ArcState.MRU.ordinal()]);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("ConcurrentArc must keep arcs_esize in a field stateEsize", e);
        }
        return arc;
    }

    /**
     * Waiters never released by count: every waiter's {@code aew_count} is the largest u64, which
     * {@code arc_evict_count} never reaches, so {@code arc_evict_state_impl} never releases one and each waits
     * until a pass ends with eviction no longer needed, evicting more than it asked for.
     */
    public static <V> ConcurrentArc<V> waitersNeverReleasedByCount(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            @Override
            long waiterCount(long last, long evictCount, long amount) {
                return -1L;
            }
        }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    /**
     * An evictor that never reschedules itself: {@code arc_evict_cb} ends every pass with
     * {@code arc_evict_needed = FALSE} (releasing every waiter), even while the size is still above the target
     * and the pass evicted something, so a pass cut short by the batch limit is not followed by another (R7).
     */
    public static <V> ConcurrentArc<V> evictorNeverRescheduled(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            @Override
            void endPass(BooleanSupplier stillNeeded) {
                super.endPass(() -> false);
            }
        }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    /**
     * Prefetch lifetimes ignored: the concurrent ARC runs with {@code arc_min_prefetch_ms} and
     * {@code arc_min_prescient_prefetch_ms} of 0 while the spec keeps the configured ones, so eviction takes young
     * prefetched headers that it must skip ({@code evict_skip}).
     */
    public static <V> ConcurrentArc<V> prefetchLifetimesIgnored(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        Tunables t = config.tunables();
        return new ConcurrentArc<>(config.withTunables(new Tunables(t.pMinShift(), t.shrinkShift(), t.noGrowShift(),
                t.growRetrySeconds(), t.overflowShift(), t.evictionPct(), t.evictBatchLimit(), t.pDampenerDisable(),
                0, 0, t.abdScatterEnabled(), t.abdScatterMinSize())), memory, options);
    }
}
