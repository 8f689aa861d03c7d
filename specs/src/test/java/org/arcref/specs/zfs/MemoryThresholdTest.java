package org.arcref.specs.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.arcref.differential.Lockstep;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The memory thresholds of {@code arc_reap_cb_check} and {@code arc_adapt} at exactly their boundary values, where
 * the C's strict comparisons decide: {@code arc_available_memory() < 0} reaps, {@code free <
 * arc_c >> arc_no_grow_shift} stops growth, and growth is allowed at zero available memory. Each scenario drives
 * the spec and, in lock step, the concurrent ARC in deterministic mode (D1, {@link Lockstep}), so both are held to
 * the same boundaries.
 */
class MemoryThresholdTest {

    private static final long SYS_FREE = 1 << 20;
    private static final long C_MIN = 8192;

    private final Lockstep arc = new Lockstep(new ArcConfig(C_MIN, 65536, 2048, 4096, SYS_FREE, 1000, 1, 0, true,
            Set.of(), Tunables.defaults()), SYS_FREE);

    @Test
    @DisplayName("zero available memory does not reap; one byte less does")
    void reapsOnlyBelowZeroAvailableMemory() {
        assertEquals(Outcome.IDLE, arc.apply(new Operation.Reap()), "available memory 0 is not < 0");
        arc.apply(new Operation.Memory(SYS_FREE - 1));
        assertEquals(Outcome.REAPED, arc.apply(new Operation.Reap()), "available memory -1 reaps");
    }

    @Test
    @DisplayName("available memory exactly arc_c >> arc_no_grow_shift lets the cache grow again")
    void noGrowOnlyBelowTheShiftedTarget() {
        long threshold = C_MIN >>> Tunables.defaults().noGrowShift();
        arc.apply(new Operation.Memory(SYS_FREE + threshold - 1));
        arc.apply(new Operation.Reap());
        assertTrue(arc.snapshot().noGrow(), "free < arc_c >> arc_no_grow_shift stops growth");
        arc.apply(new Operation.Memory(SYS_FREE + threshold));
        arc.apply(new Operation.Reap());
        assertFalse(arc.snapshot().noGrow(), "free == arc_c >> arc_no_grow_shift does not");
    }

    @Test
    @DisplayName("arc_adapt grows arc_c when available memory is exactly zero")
    void growsAtZeroAvailableMemory() {
        for (long key = 1; key <= 4; key++) {
            arc.apply(new Operation.Read(key, 2048, ReadKind.DEMAND, false));
        }
        assertTrue(arc.snapshot().c() > C_MIN, "arc_c grew from arc_c_min: " + arc.snapshot().c());
    }
}
