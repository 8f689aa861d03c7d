package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.StateSnapshot;
import org.arcref.zfs.Tunables;
import org.arcref.zfs.check.ArcInvariants;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * B1, N1: an operation whose allocation throws leaves no trace of its block. The lost-wakeup variant in stepped
 * mode makes the first allocation that overflows a 16 KiB cache severely throw ({@link Evictor#awaitRelease}
 * reports the waiter nobody would release); the block it was reading must then be neither hashed, nor returned
 * by {@link ConcurrentArc#lookup}, nor counted, and a second read of it must miss again. Blocks of 4 KiB are scatter
 * data (fact sheet d.24), so each demand read also allocates a private copy for its buffer, after the header's
 * data: the overflow allowance is {@code MAX(4096, 16K >> 8) = 4096} and SEVERE starts at 20 KiB, so the read of
 * key 4 gets its header's data at 16 KiB and fails on its copy at 20 KiB, which undoes the whole read.
 */
class FailedAllocationTest {

    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096);

    @Test
    @DisplayName("B1, N1: a read whose allocation throws leaves no header, no value and no bytes behind")
    void failedMissLeavesNoTrace() {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        long failed = -1;
        for (long key = 0; key < 16 && failed < 0; key++) {
            try {
                arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
            } catch (PropertyViolation e) {
                assertEquals(Property.L1, e.property(), e.getMessage());
                failed = key;
            }
        }
        assertTrue(failed >= 0, "a read must have failed");
        long key = failed;
        ArcSnapshot after = arc.snapshot();
        assertNull(arc.lookup(key), "N1: lookup returned the value of a read that failed");
        assertTrue(after.headers().stream().noneMatch(h -> h.key() == key), "the failed read left a header");
        ArcInvariants.r3r4Accounting(after);
        PropertyViolation again = assertThrows(PropertyViolation.class,
                () -> arc.read(key, 4096, ReadKind.DEMAND, false, k -> k));
        assertEquals(Property.L1, again.property(), "the second read must miss and allocate again, "
                + "not hit a header without data: " + again.getMessage());
        assertEquals(after.size(), arc.sizeAggsum().value(), "no bytes counted by the failed reads");
    }

    /**
     * With linear ABDs a demand read allocates only its header's data, under the hash lock after
     * {@code buf_hash_insert}: here that allocation is the one that throws, and the header it hashed must be
     * removed again. Keys 0-4 are cached unheld, their buffers sharing the data: each allocates at most at 16 KiB
     * (NONE), 20 KiB in all. Key 5's allocation at 20 KiB is SEVERE and throws. Freeing key 0 brings the size back
     * to 16 KiB, where nothing waits: a read of key 5 must then miss and cache it, not find a header left behind.
     */
    @Test
    @DisplayName("B1, N1: a miss whose header data cannot be allocated leaves its key unhashed, so it misses again")
    void failedHeaderAllocationUnhashesTheMiss() {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG.withTunables(Tunables.defaults()
                .withAbdScatterEnabled(false)), MemoryModel.plentiful(), ArcOptions.deterministic());
        for (long key = 0; key < 5; key++) {
            assertEquals(Outcome.MISS, arc.read(key, 4096, ReadKind.DEMAND, false, k -> k).outcome());
        }
        assertEquals(20L << 10, arc.snapshot().size(), "set-up: five blocks, no private copies");
        PropertyViolation e = assertThrows(PropertyViolation.class,
                () -> arc.read(5, 4096, ReadKind.DEMAND, false, k -> k));
        assertEquals(Property.L1, e.property(), e.getMessage());
        assertTrue(arc.snapshot().headers().stream().noneMatch(h -> h.key() == 5), "the failed read left a header");
        assertNull(arc.lookup(5), "N1: lookup returned the value of a read that failed");

        assertEquals(Outcome.FREED, arc.free(0));
        assertEquals(16L << 10, arc.snapshot().size(), "set-up: key 5's next allocation does not wait");
        ReadResult<Long> again = arc.read(5, 4096, ReadKind.DEMAND, false, k -> k);
        assertEquals(new ReadResult<>(Outcome.MISS, 5L), again,
                "the failed miss must leave nothing hashed under key 5: its next read misses and loads it");
        ArcInvariants.r3r4Accounting(arc.snapshot());
    }

    /**
     * A demand hit whose private copy cannot be allocated gives its reference back. Keys 0-3 are cached unheld: 16
     * KiB. A held hit on key 0 adds its copy at 16 KiB (not overflowing): 20 KiB, and nothing wakes the evictor. A
     * held hit on key 1 then takes its reference and asks for its copy at 20 KiB: SEVERE, and the lost-wakeup variant
     * throws. Key 1 must be unreferenced, on its list and still cached, and nothing counted.
     */
    @Test
    @DisplayName("B1, N1: a hit whose private copy cannot be allocated gives its reference back")
    void failedCopyOnAHitGivesTheReferenceBack() {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        for (long key = 0; key < 4; key++) {
            arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
        }
        assertEquals(Outcome.HIT_MRU, arc.read(0, 4096, ReadKind.DEMAND, true, k -> k).outcome());
        ArcSnapshot before = arc.snapshot();
        assertEquals(20L << 10, before.size(), "four blocks and key 0's private copy");
        PropertyViolation e = assertThrows(PropertyViolation.class,
                () -> arc.read(1, 4096, ReadKind.DEMAND, true, k -> k));
        assertEquals(Property.L1, e.property(), e.getMessage());
        ArcSnapshot after = arc.snapshot();
        HeaderSnapshot h = after.headers().stream().filter(x -> x.key() == 1).findFirst().orElseThrow();
        assertTrue(h.refcount() == 0 && h.linked() && h.hasData() && !h.sharedData(), h.toString());
        assertEquals(before.size(), after.size(), "no bytes counted by the failed hit");
        assertEquals(before.state(ArcState.MRU), after.state(ArcState.MRU), "MRU's size and evictable size");
        assertEquals(1L, arc.lookup(1), "the block stays cached");
        ArcInvariants.r3r4Accounting(after);
    }

    @Test
    @DisplayName("B1, N1: a write whose allocation throws leaves no pending write behind")
    void failedWriteLeavesNoTrace() {
        ConcurrentArc<Long> arc = BrokenArcs.lostWakeup(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        long failed = -1;
        for (long key = 0; key < 16 && failed < 0; key++) {
            try {
                assertEquals(Outcome.WRITTEN, arc.write(key, 4096, key));
            } catch (PropertyViolation e) {
                assertEquals(Property.L1, e.property(), e.getMessage());
                failed = key;
            }
        }
        assertTrue(failed >= 0, "a write must have failed");
        long key = failed;
        assertTrue(arc.snapshot().headers().stream().noneMatch(h -> h.key() == key), "the failed write left a header");
        assertThrows(IllegalArgumentException.class, () -> arc.completeWrite(key, false),
                "a failed write must leave no pending write to complete");
    }

    @Test
    @DisplayName("N1: the accounting check sees a listed MRU header that holds no data and counts 0 bytes")
    void accountingCheckSeesAHeaderWithoutData() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        arc.read(1, 4096, ReadKind.DEMAND, false, k -> k);
        ArcSnapshot s = arc.snapshot();
        ArcInvariants.r3r4Accounting(s);
        HeaderSnapshot h = s.headers().get(0);
        assertTrue(h.state() == ArcState.MRU && h.linked() && h.hasData(), h.toString());
        HeaderSnapshot empty = new HeaderSnapshot(h.key(), h.state(), h.size(), false, false, h.refcount(), h.prefetch(),
                h.prescientPrefetch(), h.lastAccess(), h.sublist(), h.linked());
        List<StateSnapshot> states = new ArrayList<>(s.states());
        StateSnapshot mru = states.get(ArcState.MRU.ordinal());
        states.set(ArcState.MRU.ordinal(), new StateSnapshot(mru.size() - h.size(), mru.evictableSize() - h.size()));
        ArcSnapshot broken = new ArcSnapshot(s.tick(), s.c(), s.p(), s.cMin(), s.cMax(), s.size() - h.size(),
                s.noGrow(), s.warm(), s.growTime(), s.evictNeeded(), s.evictCount(), s.needFree(), s.waiterCounts(),
                states, List.of(empty), s.stats());
        PropertyViolation e = assertThrows(PropertyViolation.class, () -> ArcInvariants.r3r4Accounting(broken));
        assertEquals(Property.R4, e.property(), e.getMessage());
    }
}
