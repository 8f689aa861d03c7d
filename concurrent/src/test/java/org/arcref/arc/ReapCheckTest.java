package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Outcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrentArc#reapStep()} at the boundary of zfs-2.1.1's {@code arc_reap_cb_check} (arc.c:4939-4953):
 * it reaps only when {@code arc_available_memory()} ({@code free - arc_sys_free}) is below zero. At exactly zero it
 * takes the first else-branch instead, {@code free_memory < arc_c >> arc_no_grow_shift} (0 < 16K >> 5 = 512), which
 * sets {@code arc_no_grow} and leaves {@code arc_warm} and {@code arc_growtime} alone. One byte less reaps: both flags
 * set and {@code arc_growtime} = now + {@code arc_grow_retry} (5 s) × HZ (1000) ticks.
 */
class ReapCheckTest {

    private static final long SYS_FREE = 1L << 20;
    private static final long NOW = 10;

    @Test
    @DisplayName("zero available memory does not reap, it only stops growth; one byte less reaps")
    void reapsOnlyBelowZeroAvailableMemory() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.small(16L << 10, 64L << 10, 4096).withSysFree(SYS_FREE),
                new AdjustableMemory(SYS_FREE), ArcOptions.deterministic());
        arc.tick(NOW);

        assertEquals(Outcome.IDLE, arc.reapStep(), "available memory 0 is not < 0: nothing to reap");
        ArcSnapshot atZero = arc.snapshot();
        assertTrue(atZero.noGrow(), "0 < arc_c >> arc_no_grow_shift: arc_no_grow is set");
        assertFalse(atZero.warm(), "arc_warm is set only by a reap");
        assertEquals(0, atZero.growTime(), "arc_growtime is set only by a reap");

        arc.setFreeMemory(SYS_FREE - 1);
        assertEquals(Outcome.REAPED, arc.reapStep(), "available memory -1 reaps");
        ArcSnapshot below = arc.snapshot();
        assertTrue(below.noGrow() && below.warm(), "a reap sets arc_no_grow and arc_warm: " + below);
        assertEquals(NOW + 5 * 1000, below.growTime(), "arc_growtime = now + arc_grow_retry seconds of 1000 ticks");
    }
}
