package org.arcref.arc;

import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;

/**
 * Deliberately broken variants of {@link ConcurrentArc} (test sources only), which the differential property D1
 * and the waiter tests must catch.
 */
public final class BrokenArcs {

    private BrokenArcs() {
    }

    /**
     * The waiter count of zfs before #11397 without its assertion, the bug of #11285: {@code aew_count =
     * last + amount} instead of {@code MAX(last, arc_evict_count) + amount}, so a waiter queued on an empty list
     * is satisfied by bytes evicted before it arrived and is released too early.
     */
    public static <V> ConcurrentArc<V> waiterCountWithoutMax(ArcConfig config, MemoryModel memory,
            ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            @Override
            long waiterCount(long last, long evictCount, long amount) {
                return last + amount;
            }
        });
    }

    /**
     * The lost-wakeup pattern (#3616): an eviction waiter goes to sleep without making sure the evictor was told
     * there is work ({@code arc_evict_needed} set and the zthr woken), and the overflow path does not tell it
     * either; unless something else wakes the evictor, the waiter sleeps for ever.
     */
    public static <V> ConcurrentArc<V> lostWakeup(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options, (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
            @Override
            void ensureEvicting() {
            }
        });
    }
}
