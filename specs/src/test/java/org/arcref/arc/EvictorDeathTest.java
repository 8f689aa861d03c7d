package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.check.ArcInvariants;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * L1 when the evict zthr dies: an {@link Error} thrown by {@code arc_evict_cb} ends the zthr's thread; every
 * waiting allocation then fails with an {@link IllegalStateException} naming the death and carrying the Error as
 * its cause, every later allocation fails the same way, and the failed reads leave no trace (B1): a miss leaves
 * no header, a ghost hit leaves its ghost as it was. Before the fix the waiter slept for ever.
 */
class EvictorDeathTest {

    private static final ArcConfig CONFIG = EvictionWaiterTest.CONFIG;
    private static final ArcOptions THREADED_EXACT = EvictionWaiterTest.THREADED_EXACT;
    private static final long LIMIT_MS = 5000;

    @Test
    @DisplayName("L1: when the evict zthr dies of an Error, its waiters and later allocations fail naming the cause")
    void deadEvictorFailsWaitersAndLaterAllocations() throws InterruptedException {
        try (ConcurrentArc<Long> arc = BrokenArcs.evictorDies(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            AtomicReference<RuntimeException> failure = new AtomicReference<>();
            AtomicReference<Long> failedKey = new AtomicReference<>();
            Thread reader = new Thread(() -> {
                for (long key = 0; key < 64; key++) {
                    try {
                        arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
                    } catch (RuntimeException e) {
                        failure.set(e);
                        failedKey.set(key);
                        return;
                    }
                }
            }, "reader");
            reader.setDaemon(true);
            reader.start();
            reader.join(LIMIT_MS);
            assertFalse(reader.isAlive(), "L1: the reader still waits for a dead evictor after " + LIMIT_MS + " ms");
            assertDeathReported(failure.get());
            assertTrue(Arrays.stream(failure.get().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("awaitRelease")),
                    "the failed read must be the one that waited when the evictor died (L1 on the waiter path)");
            long key = failedKey.get();
            assertNull(arc.lookup(key), "B1: the failed read left its value");
            assertTrue(arc.snapshot().headers().stream().noneMatch(h -> h.key() == key),
                    "B1: the failed read left a header");
            long size = arc.sizeAggsum().value();
            assertDeathReported(assertThrows(IllegalStateException.class,
                    () -> arc.read(1000, 4096, ReadKind.DEMAND, false, k -> k)));
            assertEquals(size, arc.sizeAggsum().value(), "B1: a rejected allocation counted bytes");
            assertDeathReported(assertThrows(IllegalStateException.class, arc::awaitEvictorIdle));

            HeaderSnapshot ghost = arc.snapshot().headers().stream().filter(h -> h.state().isGhost()).findFirst()
                    .orElseThrow(() -> new AssertionError("the evictor's only pass must have left a ghost"));
            ArcSnapshot before = arc.snapshot();
            for (int retry = 0; retry < 3; retry++) {
                assertDeathReported(assertThrows(IllegalStateException.class,
                        () -> arc.read(ghost.key(), ghost.size(), ReadKind.DEMAND, false, k -> k)));
            }
            ArcSnapshot after = arc.snapshot();
            assertEquals(List.of(ghost), after.headers().stream().filter(h -> h.key() == ghost.key()).toList(),
                    "B1: a ghost hit whose allocation failed must leave the ghost as it was");
            assertEquals(before, after, "B1: a ghost hit refused by a dead evictor must not adapt arc_c or arc_p"
                    + " nor count statistics, however often it is retried");
            ArcInvariants.r3r4Accounting(after);
        }
    }

    @Test
    @DisplayName("B1: a demand hit on a held header refused by a dead evictor keeps its prescient-prefetch flag")
    void refusedHitOnAHeldHeaderKeepsItsFlags() throws InterruptedException {
        try (ConcurrentArc<Long> arc = BrokenArcs.evictorDies(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            long held = 1000;
            arc.read(held, 4096, ReadKind.DEMAND, true, k -> k);
            arc.read(held, 4096, ReadKind.PRESCIENT_PREFETCH, false, k -> k);
            fillUntilTheEvictorDies(arc);
            HeaderSnapshot before = header(arc, held);
            assertTrue(before.prescientPrefetch() && before.refcount() == 1, "set-up: held and prescient, was " + before);
            assertDeathReported(assertThrows(IllegalStateException.class,
                    () -> arc.read(held, 4096, ReadKind.DEMAND, false, k -> k)));
            assertEquals(before, header(arc, held), "B1: the refused hit changed the header");
        }
    }

    /**
     * A demand hit on an unheld header needs a private copy (scatter data): {@code arc_buf_alloc_impl} takes a
     * reference first, which unlinks the header, and giving it back links it at its list's head. A dead evictor must
     * refuse the hit before the reference is taken, so the header keeps its place. The two headers are held while
     * the cache overflows (eviction cannot take them) and released after the death: release needs no allocation.
     */
    @Test
    @DisplayName("B1: a demand hit on an unheld header refused by a dead evictor leaves it where it was on its list")
    void refusedHitOnAnUnheldHeaderKeepsItsPlace() throws InterruptedException {
        try (ConcurrentArc<Long> arc = BrokenArcs.evictorDies(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            long older = 1000;
            long newer = 1001;
            arc.read(older, 4096, ReadKind.DEMAND, true, k -> k);
            arc.read(newer, 4096, ReadKind.DEMAND, true, k -> k);
            fillUntilTheEvictorDies(arc);
            arc.release(older);
            arc.release(newer);
            assertEquals(List.of(newer, older), mruKeys(arc), "set-up: both unheld at MRU's head, the last released first");
            ArcSnapshot before = arc.snapshot();
            assertDeathReported(assertThrows(IllegalStateException.class,
                    () -> arc.read(older, 4096, ReadKind.DEMAND, false, k -> k)));
            assertEquals(List.of(newer, older), mruKeys(arc), "B1: the refused hit moved the header on its list");
            assertEquals(before, arc.snapshot(), "B1: the refused hit changed the ARC");
        }
    }

    /** @return the two keys at the head (the newest end) of the MRU list */
    private static List<Long> mruKeys(ConcurrentArc<Long> arc) {
        return arc.snapshot().headers().stream().filter(h -> h.state() == ArcState.MRU && h.linked())
                .map(HeaderSnapshot::key).limit(2).toList();
    }

    /**
     * With scatter ABDs (the default) {@code arc_write_ready} allocates the written block's header data, so a
     * completion can be refused by a dead evictor; the write must then stay pending, whole, and still be freeable.
     */
    @Test
    @DisplayName("B1: a write completion refused by a dead evictor leaves the write pending")
    void refusedCompletionLeavesTheWritePending() throws InterruptedException {
        try (ConcurrentArc<Long> arc = BrokenArcs.evictorDies(CONFIG, MemoryModel.plentiful(), THREADED_EXACT)) {
            long written = 1000;
            arc.write(written, 4096, written);
            fillUntilTheEvictorDies(arc);
            HeaderSnapshot before = header(arc, written);
            long size = arc.sizeAggsum().value();
            assertDeathReported(assertThrows(IllegalStateException.class, () -> arc.completeWrite(written, false)));
            assertEquals(before, header(arc, written), "B1: the refused completion changed the pending header");
            assertEquals(size, arc.sizeAggsum().value(), "B1: the refused completion counted bytes");
            assertEquals(Outcome.FREED, arc.free(written), "the write is still pending, so free discards it");
        }
    }

    private static HeaderSnapshot header(ConcurrentArc<Long> arc, long key) {
        return arc.snapshot().headers().stream().filter(h -> h.key() == key).findFirst()
                .orElseThrow(() -> new AssertionError("no header for key " + key));
    }

    @Test
    @DisplayName("L1: an Error in the evict zthr's check function is a death too: waiters are released, the thread ends")
    void deathInTheCheckFunctionIsRecorded() throws InterruptedException {
        CountDownLatch died = new CountDownLatch(1);
        AtomicReference<Thread> zthrThread = new AtomicReference<>();
        Evictor evictor = Evictor.threaded(new Evictor.Callbacks() {
            @Override
            public boolean check() {
                zthrThread.set(Thread.currentThread());
                throw new AssertionError("assertion failure injected into arc_evict_cb_check by the test");
            }

            @Override
            public void run(BooleanSupplier cancelled) {
            }

            @Override
            public void died(Error cause) {
                died.countDown();
            }
        }, ZthrPriority.DEFCLSYSPRI);
        try {
            evictor.wakeup();
            assertTrue(died.await(LIMIT_MS, TimeUnit.MILLISECONDS),
                    "L1: an Error in the check function ended the zthr without releasing its waiters");
            assertDeathReported(assertThrows(IllegalStateException.class, evictor::requireAlive));
            zthrThread.get().join(LIMIT_MS);
            assertFalse(zthrThread.get().isAlive(), "L1: the Error must end the dead evict zthr's thread, which "
                    + "still runs after " + LIMIT_MS + " ms (rethrown as something other than the Error?)");
        } finally {
            evictor.shutdown();
        }
    }

    private static void assertDeathReported(RuntimeException e) {
        assertInstanceOf(IllegalStateException.class, e, "the failure must be the evictor's death, was " + e);
        assertTrue(e.getMessage().startsWith("the evict zthr arc_evict died"), e.getMessage());
        assertInstanceOf(AssertionError.class, e.getCause(), "the cause must be the Error that killed it");
    }

    /**
     * Reads new 4 KiB blocks from another thread until the cache overflows, the evictor runs and dies and the
     * filler's allocation is refused; fails (L1) if the filler still waits after {@code LIMIT_MS}.
     */
    private static void fillUntilTheEvictorDies(ConcurrentArc<Long> arc) throws InterruptedException {
        Thread filler = EvictionWaiterTest.reader(arc);
        filler.join(LIMIT_MS);
        assertFalse(filler.isAlive(), "L1: the filler still waits for a dead evictor after " + LIMIT_MS + " ms");
    }
}
