package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.conformance.ConformanceSettings;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;
import org.junit.jupiter.api.Test;

/** The generators' shared draws stay in their ranges; a drawn operation the engine rejects is named. */
class DrawsTest {

    @Test
    void drawsStayInTheirRangesAndReachTheirEnds() {
        SplitMix64 r = new SplitMix64(1);
        boolean[] ends = new boolean[4];
        for (int i = 0; i < 10_000; i++) {
            long b = Draws.between(r, -3, 3);
            assertTrue(b >= -3 && b <= 3, "between " + b);
            long whole = Draws.between(r, 1, Long.MAX_VALUE);
            assertTrue(whole >= 1, "between 1 and the greatest long: " + whole);
            long log = Draws.logUniform(r, 5, 1L << 40);
            assertTrue(log >= 5 && log <= 1L << 40, "log-uniform " + log);
            ends[0] |= log < 1 << 10;
            ends[1] |= log > 1L << 30;
            long e = Draws.edged(r, 10, 1000, 20, 7, 500, 2000);
            assertTrue(e >= 10 && e <= 1000 && e != 7 && e != 2000, "edged " + e);
            ends[2] |= e == 500;
            ends[3] |= e == 1000;
        }
        assertTrue(ends[0] && ends[1] && ends[2] && ends[3], "both ends of a wide range, an edge, the greatest");
    }

    @Test
    void aDrawnOperationTheEngineRejectsIsNamed() {
        ConformanceSettings d = ConformanceSettings.defaults();
        ZfsArc arc = new ZfsArc(d.config(), d.memory());
        Operation read = new Operation.Read(1, 4096, ReadKind.DEMAND, false);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Draws.apply(arc, read, 2));
        assertTrue(e.getMessage().startsWith("the spec rejects generated operation 3 \"read 1 4096 demand\" under the "
                + "given settings: "), e.getMessage());
        assertEquals(0, arc.snapshot().headers().size(), "the spec is unchanged");
    }
}
