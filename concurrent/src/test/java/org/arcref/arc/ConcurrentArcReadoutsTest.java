package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The live readouts of a {@link ConcurrentArc} ({@code arc_c}, {@code arc_p}, each state's {@code arcs_size}) agree
 * with its snapshot when no operation is in flight, and {@link ConcurrentArc#awaitEvictorIdle()} returns only once
 * the evict zthr has ended eviction.
 */
class ConcurrentArcReadoutsTest {

    @Test
    @DisplayName("config, options, lookup; targetSize, mruTarget and stateSize read arc_c, arc_p and arcs_size as the snapshot does")
    void readoutsAgreeWithTheSnapshot() {
        ArcConfig config = ArcConfig.small(8192, 65536, 1024);
        ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.deterministic());
        assertEquals(config, arc.config());
        assertEquals(ArcOptions.deterministic(), arc.options());
        for (long key = 1; key <= 12; key++) {
            arc.read(key, 1024, ReadKind.DEMAND, false, k -> k);
        }
        arc.tick(1000);
        arc.read(1, 1024, ReadKind.DEMAND, false, k -> k);
        ArcSnapshot s = arc.snapshot();
        assertEquals(14336, s.c(), "set-up: arc_adapt grew arc_c (see BoundaryScenariosTest in specs)");
        assertEquals(s.c(), arc.targetSize());
        assertEquals(s.p(), arc.mruTarget());
        for (ArcState state : ArcState.values()) {
            assertEquals(s.states().get(state.ordinal()).size(), arc.stateSize(state), state.name());
        }
        assertEquals(1024, arc.stateSize(ArcState.MFU), "set-up: key 1 moved to MFU");
        assertEquals(7L, arc.lookup(7), "lookup returns the cached value");
        assertEquals(null, arc.lookup(99), "lookup of a key never read");
    }

    @Test
    @DisplayName("eviction passes leave no marker behind: each state's list holds exactly its unheld headers")
    void evictionLeavesNoMarkers() throws InterruptedException, ExecutionException {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.small(8192, 8192, 1024).withSublists(4),
                MemoryModel.plentiful(), ArcOptions.deterministic());
        for (long key = 1; key <= 48; key++) {
            arc.read(key % 3 == 0 ? key / 3 : key, 1024, ReadKind.DEMAND, false, k -> k);
            arc.tick(100);
        }
        ArcSnapshot s = arc.snapshot();
        assertTrue(s.stats().get(ArcStat.EVICTOR_RUNS) > 0, "set-up: eviction must have run");
        for (ArcState state : EnumSet.complementOf(EnumSet.of(ArcState.ANON))) {
            long linked = s.headers().stream().filter(h -> h.state() == state && h.linked()).count();
            assertEquals(linked, arc.listNodes(state), state + ": nodes on the list besides its headers (a marker "
                    + "left by arc_evict_state?)");
        }
        assertTrue(s.headers().stream().anyMatch(h -> h.state() == ArcState.MFU && h.linked())
                && s.headers().stream().anyMatch(h -> h.state() == ArcState.MRU_GHOST && h.linked()),
                "set-up: MFU and MRU ghost headers on their lists");
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            assertEquals(s, other.submit(arc::snapshot).get(5, TimeUnit.SECONDS),
                    "another thread's snapshot, which takes every sublist lock, after listNodes and snapshot here");
        } catch (TimeoutException e) {
            throw new AssertionError("listNodes or snapshot left a sublist locked: another thread's snapshot still "
                    + "waits after 5 s", e);
        } finally {
            other.shutdownNow();
        }
    }

    @Test
    @DisplayName("awaitEvictorIdle returns once a pass of the evict zthr ended with arc_evict_needed FALSE")
    void awaitEvictorIdleWaitsForTheEndOfEviction() {
        ArcOptions threadedExact = new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false,
                ArcOptions.ZFS_BUF_LOCKS);
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.small(8192, 8192, 1024),
                MemoryModel.plentiful(), threadedExact)) {
            for (long key = 1; key <= 24; key++) {
                arc.read(key, 1024, ReadKind.DEMAND, false, k -> k);
            }
            arc.awaitEvictorIdle();
            ArcSnapshot s = arc.snapshot();
            assertFalse(s.evictNeeded(), "arc_evict_needed after awaitEvictorIdle");
            // Every read that found arc_size at arc_c + 512 or more (ARC_OVF_SOME: overflow = 1024, the largest
            // block) woke the zthr, whose last pass, with nothing held, left arc_size <= arc_c; a read after it
            // found less than arc_c + 512 and added at most 1024.
            assertTrue(s.size() < s.c() + 512 + 1024, "arc_size " + s.size() + " left over arc_c " + s.c());
            assertTrue(s.stats().get(ArcStat.EVICTOR_RUNS) > 0, "the evict zthr never ran");
        }
    }
}
