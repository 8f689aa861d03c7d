package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engines' readouts of state a snapshot leaves out (the memory model's answer, the sublist-start generator,
 * zfs-2.2.0's {@code arc_evict} statics and {@code arc_last_uncached_flush}), and a header's accounted size, each
 * against what the operations that led there imply.
 */
class EngineReadoutsTest {

    @Test
    void freeMemoryIsTheMemoryModelsAnswer() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 8192, 2048), new AdjustableMemory(123_456));
        assertEquals(123_456, arc.freeMemory());
        arc.setFreeMemory(7);
        assertEquals(7, arc.freeMemory());
    }

    @Test
    void theSublistStartGeneratorStartsAtTheSeedAndMovesWithAScan() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 4096, 2048).withSublists(3).withSeed(99),
                MemoryModel.plentiful());
        assertEquals(99, arc.sublistStartState(), "no draw yet");
        for (long k = 0; k < 12; k++) {
            arc.read(k, 1024, ReadKind.DEMAND, false);
        }
        assertNotEquals(99, arc.sublistStartState(), "12 KiB read into 4 KiB: eviction scans drew their start");
    }

    @Test
    void aHeadersAccountedSizeIsItsDataAndItsPrivateCopies() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 4096, 2048).withSublists(1), MemoryModel.plentiful());
        arc.read(0, 1024, ReadKind.DEMAND, false);
        HeaderSnapshot mru = arc.snapshot().headers().get(0);
        assertEquals(ArcState.MRU, mru.state());
        assertEquals(1024, mru.accountedSize(), "its data, no buffer left");
        HeaderSnapshot held = new HeaderSnapshot(1, ArcState.MRU, 512, true, false, 2, false, false, 0, 0, true);
        assertEquals(512 + 2 * 512, held.accountedSize(), "its data and two private copies");
    }

    /**
     * MFU data keeps the MRU ghost's target above 0 (a pass with MRU data alone deletes its ghosts); frees leave
     * room, so that the ghost hit runs no pass: its growth shows until a later pass takes it in.
     */
    @Test
    void evictStaticsAreTheGhostHitGrowthSinceTheLastPassAndThatPasssTargets() {
        Zfs22Arc arc = new Zfs22Arc(ArcConfig.small(4096, 4096, 512).withSublists(1)
                .withEvictorRunsAfterEachOperation(false), 512, 500, MemoryModel.plentiful());
        assertEquals(List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), arc.evictStatics());
        for (int access = 0; access < 2; access++) {
            for (long k = 0; k < 4; k++) {
                arc.read(k, 512, ReadKind.DEMAND, false, BufType.DATA, false);
            }
            arc.tick(100);
        }
        for (long k = 10; k < 20; k++) {
            arc.read(k, 512, ReadKind.DEMAND, false, BufType.DATA, false);
            arc.evictorStep();
        }
        for (long k = 16; k < 20; k++) {
            arc.free(k);
        }
        long ghost = arc.snapshot().headers().stream().filter(h -> h.state() == ArcState.MRU_GHOST)
                .mapToLong(HeaderSnapshot::key).findFirst().orElseThrow();
        assertEquals(Outcome.GHOST_HIT_MRU, arc.read(ghost, 512, ReadKind.DEMAND, false, BufType.DATA, false));
        List<Long> statics = arc.evictStatics();
        assertEquals(8, statics.size(), "four growths, four targets");
        assertEquals(List.of(512L, 0L, 0L, 0L), statics.subList(0, 4), "one MRU ghost data hit since the pass");
        for (long k = 30; k < 40 && arc.evictStatics().get(0) != 0; k++) {
            arc.read(k, 512, ReadKind.DEMAND, false, BufType.DATA, false);
            arc.evictorStep();
        }
        assertEquals(List.of(0L, 0L, 0L, 0L), arc.evictStatics().subList(0, 4), "a pass took the growth in");
    }

    @Test
    void lastUncachedFlushIsTheTickOfTheEvictZthrsLastCallback() {
        Zfs22Arc arc = new Zfs22Arc(ArcConfig.small(8192, 8192, 512).withSublists(1)
                .withEvictorRunsAfterEachOperation(false), 512, 500, MemoryModel.plentiful());
        assertEquals(0, arc.lastUncachedFlush(), "no callback yet");
        arc.read(0, 512, ReadKind.PREFETCH, false, BufType.DATA, true);
        assertEquals(ArcState.UNCACHED, arc.snapshot().headers().get(0).state());
        arc.tick(1000);
        assertEquals(Outcome.EVICTOR_RAN, arc.evictorStep(), "uncached bytes and more than the flush period");
        assertEquals(1000, arc.lastUncachedFlush());
        assertTrue(arc.snapshot().headers().isEmpty(), "the callback flushed the uncached header");
    }
}
