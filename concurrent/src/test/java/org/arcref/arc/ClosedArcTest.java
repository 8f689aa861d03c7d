package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The class contract of {@link ConcurrentArc} after {@link ConcurrentArc#close()}: every operation throws
 * {@link IllegalStateException}, the readouts still read the final state. One test per operation that once did not
 * throw.
 */
class ClosedArcTest {

    @Test
    @DisplayName("lookup throws after close(), where it once still returned the cached value; the snapshot still reads")
    void lookupThrowsAfterClose() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.small(8192, 65536, 1024), MemoryModel.plentiful(),
                ArcOptions.deterministic());
        arc.read(1, 1024, ReadKind.DEMAND, false, k -> k);
        assertEquals(1L, arc.lookup(1), "set-up: key 1 is cached");
        ArcSnapshot before = arc.snapshot();
        arc.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> arc.lookup(1));
        assertEquals("ConcurrentArc must be open, was closed", e.getMessage());
        assertEquals(before, arc.snapshot(), "a closed cache's readouts still read its final state");
    }
}
