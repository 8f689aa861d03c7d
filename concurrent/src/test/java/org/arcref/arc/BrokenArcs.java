package org.arcref.arc;

import java.util.concurrent.atomic.AtomicLong;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.LowerBoundAsUpperAggSum;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;

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

    /** The waiter queue of {@link #wakeConditionsDiffer}: a pass that ends eviction releases only reached counts. */
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
     * Wake conditions that differ, the pattern of #3616 (0.6.4 woke waiters on one condition and stopped its
     * reclaim thread on another): a pass that ends eviction ({@code arc_evict_needed} false: nothing evicted, no
     * longer over the target, or cancelled) releases only the waiters whose count was reached, the per-visit
     * condition, instead of all of them; the others sleep with nobody evicting for them (L1; model M3's
     * {@code BROKEN_3616}). In 0.6.4 a one-second timer made the wakeup late; 2.1's evict zthr has no timer, so
     * here it is lost unless a later allocation wakes the evictor.
     */
    public static <V> ConcurrentArc<V> wakeConditionsDiffer(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, WAKE_CONDITIONS_DIFFER, AtomicLong::addAndGet,
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
}
