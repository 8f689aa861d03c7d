package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.Test;

/** The presets of {@link ArcOptions}, and its copies, which change the one component they name and keep the others. */
class ArcOptionsTest {

    @Test
    void copiesChangeOnlyWhatTheyName() {
        ArcOptions exactWithOneLock = new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), true, 1);
        assertEquals(new ArcOptions(true, EvictorMode.zthr(ZthrPriority.MINCLSYSPRI), true, 1),
                exactWithOneLock.withEvictorPriority(ZthrPriority.MINCLSYSPRI));
        ArcOptions stepped = exactWithOneLock.withSteppedEvictor();
        assertEquals(new ArcOptions(true, EvictorMode.STEPPED, true, 1), stepped);
        assertTrue(stepped.isStepped());
        assertEquals(new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false, 1),
                exactWithOneLock.withExactPGrowthCompare(false));
    }

    @Test
    void presetsAreZfs211AndTheDeterministicMode() {
        assertEquals(new ArcOptions(false, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false, 2048), ArcOptions.zfs(),
                "2.1.1: per-CPU aggsum, arc_evict at defclsyspri, the upper-bound check, BUF_LOCKS 2048");
        assertEquals(new ArcOptions(true, EvictorMode.STEPPED, false, 2048), ArcOptions.deterministic());
        assertFalse(ArcOptions.zfs().isStepped(), "2.1.1's evictor is the arc_evict zthr, not stepped");
        assertTrue(ArcOptions.deterministic().isStepped(), "the deterministic mode steps the evictor");
    }
}
