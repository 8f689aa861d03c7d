package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * L1 on the waiter protocol: a reader whose allocations overflow a 16 KiB cache severely waits for the evict
 * zthr and returns; the lost-wakeup variant (a waiter that never wakes the evictor) leaves it waiting until
 * {@code close()} releases it. A stranded waiter is named (L1) as soon as it is seen, not by a timeout; stepped mode
 * reports it from inside. The aggsum is exact: with a per-CPU one a single reader's
 * borrow keeps the lower bound, and so the overflow level, far below the true size of so small a cache.
 */
class EvictionWaiterTest {

    /** A 16 KiB cache of 4 KiB blocks, which {@link #reader}'s 64 blocks overflow; shared by the evictor tests. */
    static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096);
    /** An exact aggsum (so the overflow levels follow the true size) and the evict zthr at defclsyspri. */
    static final ArcOptions THREADED_EXACT = new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false,
            ArcOptions.ZFS_BUF_LOCKS);

    /**
     * Starts a thread reading 64 new 4 KiB blocks, stopping quietly if the cache is closed or its evictor died;
     * returns it. Also the way specs' {@code EvictorDeathTest} overflows a cache.
     */
    static Thread reader(ConcurrentArc<Long> arc) {
        Thread t = new Thread(() -> {
            try {
                for (long key = 0; key < 64; key++) {
                    arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
                }
            } catch (IllegalStateException closed) {
                return;
            }
        }, "reader");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Waits until {@code reader} returns, or fails naming L1 as soon as it sees, twice 50 ms apart with the same
     * counts, a waiter queued while {@code arc_evict_needed} is FALSE: nobody will release that waiter, since only a
     * pass of a woken evictor does (and {@code arc_evict_needed} turns FALSE only together with releasing every
     * waiter). So a lost wakeup is named within milliseconds, not found by waiting; {@code bound} only ends a run
     * that neither returns nor shows the stranded state.
     */
    static void awaitReturnOrL1(ConcurrentArc<Long> arc, Thread reader, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        List<Long> seen = null;
        while (reader.isAlive()) {
            ArcSnapshot s = arc.snapshot();
            List<Long> stranded = !s.waiterCounts().isEmpty() && !s.evictNeeded() ? s.waiterCounts() : null;
            if (stranded != null && stranded.equals(seen)) {
                throw new PropertyViolation(Property.L1, "waiters with counts " + stranded + " are queued while"
                        + " arc_evict_needed is FALSE (arc_evict_count " + s.evictCount() + "): nobody will release"
                        + " them", "");
            }
            seen = stranded;
            if (System.nanoTime() > deadline) {
                throw new PropertyViolation(Property.L1, "the reader still waits for eviction after "
                        + bound.toMillis() + " ms, though no waiter was seen stranded", "");
            }
            reader.join(50);
        }
    }

    @Test
    @DisplayName("L1: waiters of a severe overflow are released by the evict zthr")
    void waitersAreReleased() throws InterruptedException {
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            awaitReturnOrL1(arc, reader(arc), Duration.ofSeconds(5));
            assertTrue(arc.stat(ArcStat.EVICT_WAITS) > 0, "the reader must have waited");
        }
    }

    @Test
    @DisplayName("L1: a waiter that never wakes the evictor is reported stranded; close() then releases it")
    void lostWakeupVariantIsReportedStranded() throws InterruptedException {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG, MemoryModel.plentiful(), THREADED_EXACT);
        Thread t = reader(arc);
        long start = System.nanoTime();
        PropertyViolation stranded = assertThrows(PropertyViolation.class,
                () -> awaitReturnOrL1(arc, t, Duration.ofSeconds(5)));
        assertEquals(Property.L1, stranded.property(), stranded.getMessage());
        assertTrue(stranded.detail().contains("arc_evict_needed is FALSE"), stranded.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "named before the bound");
        arc.close();
        t.join(5000);
        assertFalse(t.isAlive(), "close() must release every waiter");
    }

    @Test
    @DisplayName("L1: in stepped mode a waiter nobody would release is reported, not waited for")
    void steppedModeReportsALostWakeup() {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        PropertyViolation e = assertThrows(PropertyViolation.class, () -> {
            for (long key = 0; key < 8; key++) {
                arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
            }
        });
        assertEquals(Property.L1, e.property(), e.getMessage());
    }
}
