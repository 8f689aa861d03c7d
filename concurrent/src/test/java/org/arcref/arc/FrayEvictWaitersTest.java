package org.arcref.arc;

import static org.arcref.fray.FrayExplorer.actors;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.fray.FrayExplorer;
import org.arcref.fray.FrayExplorer.Budget;
import org.arcref.fray.FrayExplorer.Kind;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model M3's properties (docs/formal-models.md, "M3 eviction waiters") checked under Fray's schedulers on the real
 * waiter queue ({@link EvictWaiters}: {@code arc_wait_for_eviction}'s {@code ARC_OVF_SEVERE} path and
 * {@code arc_evict_state_impl}'s and {@code arc_evict_cb}'s releases) with the real evict zthr
 * ({@link Evictor#threaded}), and on the real {@link ConcurrentArc}, whose readers overflow a small cache. A waiter
 * that nobody will release leaves every thread blocked, which Fray reports as a deadlock (L1). Each scenario also
 * runs on {@link BrokenArcs}' variants, which it must catch within the CI budget.
 */
@Timeout(60)
class FrayEvictWaitersTest {
    /** Schedules per scenario and scheduler in the default build; {@code -Dfray.iterations} overrides it. */
    static final Budget BUDGET = new Budget(100, 20_000, 90);
    /** The budget a broken variant must be caught within. */
    static final Budget CATCH = new Budget(100, 20_000, 0);

    private static final long SYS_FREE = 1L << 20;

    /**
     * S1, S2, L1 on the waiter queue: three allocators queue waiters for 1, 2 and 3 bytes (different amounts, so
     * that a count taken from the wrong end of the list shows) while the evict zthr runs passes, each a visit that
     * evicts 2, one that evicts 1, and an end that keeps eviction needed after every other pass. S1: the queued
     * counts never decrease, head to tail, read right after each enqueue. S2: a waiter released while no pass that
     * ends eviction and no shutdown (the zthr's death) has begun was released by count, so at least its amount was
     * evicted since it queued; the witness is the test's own tally of the evictions the passes began and completed,
     * not {@code arc_evict_count}. L1: every allocator returns. Catches {@link BrokenArcs#WAITER_COUNT_WITHOUT_MAX}
     * (S2, #11285), {@link BrokenArcs#WAKE_CONDITIONS_DIFFER} (L1, #3616) and {@link BrokenArcs#SLEEPS_WITHOUT_WAKING}
     * (L1).
     */
    static void waiterQueue(ConcurrentArc.WaitersFactory factory) {
        AtomicLong evictionsBegun = new AtomicLong();
        AtomicLong evictionsDone = new AtomicLong();
        AtomicLong releasingEnds = new AtomicLong();
        long[] passes = new long[1];
        Evictor[] evictor = new Evictor[1];
        EvictWaiters waiters = factory.create(new AdjustableMemory(1L << 30), SYS_FREE, () -> evictor[0].wakeup());
        evictor[0] = Evictor.threaded(new Evictor.Callbacks() {
            @Override
            public boolean check() {
                return waiters.evictNeeded();
            }

            @Override
            public void run(java.util.function.BooleanSupplier cancelled) {
                for (long evicted : new long[] {2, 1}) {
                    evictionsBegun.addAndGet(evicted);
                    waiters.addEvicted(evicted);
                    evictionsDone.addAndGet(evicted);
                }
                boolean stillNeeded = !cancelled.getAsBoolean() && passes[0]++ % 2 == 0;
                if (!stillNeeded) {
                    releasingEnds.incrementAndGet();
                }
                waiters.endPass(() -> stillNeeded);
            }

            @Override
            public void died(Error cause) {
                releasingEnds.incrementAndGet();
                waiters.shutdown();
            }
        }, ZthrPriority.DEFCLSYSPRI);
        Runnable[] allocators = new Runnable[3];
        for (int i = 0; i < allocators.length; i++) {
            long amount = i + 1;
            allocators[i] = () -> {
                long doneBefore = evictionsDone.get();
                long endsBefore = releasingEnds.get();
                EvictWaiters.Waiter w = waiters.enqueue(amount);
                assertNonDecreasing(waiters.counts());
                waiters.await(w);
                long begunAfter = evictionsBegun.get();
                if (releasingEnds.get() == endsBefore) {
                    assertTrue(begunAfter - doneBefore >= amount, "S2: a waiter for " + amount + " (count "
                            + w.count + ") was released by count after at most " + (begunAfter - doneBefore)
                            + " evicted since it queued");
                }
            };
        }
        actors(allocators);
        evictor[0].shutdown();
        waiters.shutdown();
    }

    /**
     * L1, S1 and the D1-style accounting on the real {@link ConcurrentArc}: two readers each read three new 4 KiB
     * blocks into a 16 KiB cache with an exact {@code arc_size} and the evict zthr, so that allocations overflow
     * severely and wait for eviction ({@code arc_get_data_impl} → {@code arc_wait_for_eviction}); an observer reads
     * the queued waiter counts once (S1). Every reader must return (L1); at quiescence no waiter is queued and the
     * accounting adds up (R3, R4, N1: {@link #assertAccountingAddsUp}, the soak's check: {@code arc_size}, each
     * state's size and evictable size against its headers); then {@code close()} must return. Catches
     * {@link BrokenArcs#lostWakeup} (L1), {@link BrokenArcs#unlockedSizeUpdate} and
     * {@link BrokenArcs#droppedEsizeUpdate} (R4, N1) and {@link BrokenArcs#closeHangs}.
     */
    static void readersOverflowTheCache(Factory factory) {
        ConcurrentArc<Long> arc = factory.create(EvictionWaiterTest.CONFIG, MemoryModel.plentiful(),
                EvictionWaiterTest.THREADED_EXACT);
        Runnable reader0 = () -> read(arc, 0);
        Runnable reader1 = () -> read(arc, 100);
        Runnable observer = () -> assertNonDecreasing(arc.snapshot().waiterCounts());
        if (actors(reader0, reader1, observer)) {
            ArcSnapshot s = arc.snapshot();
            assertEquals(List.of(), s.waiterCounts(), "L1: a waiter is still queued at quiescence");
            assertAccountingAddsUp(s);
        }
        arc.close();
    }

    /**
     * R3, R4 and N1 at quiescence, in the terms of specs' {@code ArcInvariants.r3r4Accounting},
     * which this module cannot use (it must not depend on the checkers): every MRU and MFU header holds data; each
     * state's {@code arcs_size} is the sum of its headers' {@link HeaderSnapshot#accountedSize()} and its
     * {@code arcs_esize} that of its listed ones; {@code arc_size} is the sum over anon, MRU and MFU; and
     * {@code compressed_size}, {@code uncompressed_size} and {@code overhead_size} split it into header data and
     * private copies.
     */
    private static void assertAccountingAddsUp(ArcSnapshot s) {
        long resident = 0;
        long headerData = 0;
        for (ArcState state : ArcState.values()) {
            List<HeaderSnapshot> headers = s.headers().stream().filter(h -> h.state() == state).toList();
            long size = headers.stream().mapToLong(HeaderSnapshot::accountedSize).sum();
            long esize = headers.stream().filter(HeaderSnapshot::linked).mapToLong(HeaderSnapshot::accountedSize).sum();
            assertEquals(size, s.state(state).size(), "R4: arcs_size of " + state.zfsName() + " in " + s);
            assertEquals(esize, s.state(state).evictableSize(), "R4: arcs_esize of " + state.zfsName() + " in " + s);
            if (!state.isGhost()) {
                resident += size;
                headerData += headers.stream().filter(HeaderSnapshot::hasData).mapToLong(HeaderSnapshot::size).sum();
            }
            if (!state.isGhost() && state != ArcState.ANON) {
                assertTrue(headers.stream().allMatch(HeaderSnapshot::hasData), "R4: an MRU or MFU header without "
                        + "data in " + s);
            }
        }
        assertEquals(resident, s.size(), "R3: arc_size against anon + mru + mfu in " + s);
        assertEquals(headerData, s.stats().get(ArcStat.COMPRESSED_SIZE), "R3: compressed_size in " + s);
        assertEquals(headerData, s.stats().get(ArcStat.UNCOMPRESSED_SIZE), "R3: uncompressed_size in " + s);
        assertEquals(resident - headerData, s.stats().get(ArcStat.OVERHEAD_SIZE), "R3: overhead_size in " + s);
    }

    /** S1: the queued waiter counts, head first, never decrease (as unsigned values). */
    private static void assertNonDecreasing(List<Long> counts) {
        for (int j = 1; j < counts.size(); j++) {
            assertTrue(Long.compareUnsigned(counts.get(j - 1), counts.get(j)) <= 0,
                    "S1: queued counts decrease: " + counts);
        }
    }

    /** A {@link ConcurrentArc} factory: the production constructor or one of {@link BrokenArcs}'. */
    @FunctionalInterface
    interface Factory {
        ConcurrentArc<Long> create(ArcConfig config, MemoryModel memory, ArcOptions options);
    }

    private static void read(ConcurrentArc<Long> arc, long firstKey) {
        for (long key = firstKey; key < firstKey + 3; key++) {
            long value = arc.read(key, 4096, ReadKind.DEMAND, false, k -> k).value();
            assertEquals(key, value, "a read returned another key's value");
        }
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("S1, S2, L1: waiters of different amounts on the real queue and evict zthr")
    void waiterQueue(Kind kind) {
        FrayExplorer.explore("waiters-queue", kind, BUDGET, () -> waiterQueue(EvictWaiters::new)).assertPassed();
    }

    @ParameterizedTest
    @EnumSource(names = {"RANDOM", "PCT"})
    @DisplayName("L1, S1, N1: readers overflow the real ConcurrentArc and wait for eviction")
    void readersOverflowTheCache(Kind kind) {
        FrayExplorer.explore("waiters-arc", kind, BUDGET, () -> readersOverflowTheCache(ConcurrentArc::new))
                .assertPassed();
    }

    @Test
    @DisplayName("S2 catches the waiter count without MAX (BrokenArcs.WAITER_COUNT_WITHOUT_MAX, #11285)")
    void catchesWaiterCountWithoutMax() {
        FrayExplorer.assertCaught("waiters-queue-count-without-max", CATCH,
                () -> waiterQueue(BrokenArcs.WAITER_COUNT_WITHOUT_MAX));
    }

    @Test
    @DisplayName("L1 catches a pass end that releases only the reached waiters (BrokenArcs.WAKE_CONDITIONS_DIFFER)")
    void catchesWakeConditionsDiffer() {
        FrayExplorer.assertCaught("waiters-queue-wake-conditions-differ", CATCH,
                () -> waiterQueue(BrokenArcs.WAKE_CONDITIONS_DIFFER));
    }

    @Test
    @DisplayName("L1 catches a waiter that sleeps without waking the evictor (BrokenArcs.SLEEPS_WITHOUT_WAKING)")
    void catchesSleepsWithoutWaking() {
        FrayExplorer.assertCaught("waiters-queue-sleeps-without-waking", CATCH,
                () -> waiterQueue(BrokenArcs.SLEEPS_WITHOUT_WAKING));
    }

    @Test
    @DisplayName("L1 catches the lost wakeup on the real ConcurrentArc (BrokenArcs.lostWakeup)")
    void catchesLostWakeupArc() {
        FrayExplorer.assertCaught("waiters-arc-lost-wakeup", CATCH,
                () -> readersOverflowTheCache(BrokenArcs::lostWakeup));
    }

    @Test
    @DisplayName("R4 catches an esize update dropped on insertion into MRU (BrokenArcs.droppedEsizeUpdate)")
    void catchesDroppedEsizeUpdate() {
        FrayExplorer.assertCaught("waiters-arc-dropped-esize-update", CATCH,
                () -> readersOverflowTheCache(BrokenArcs::droppedEsizeUpdate));
    }

    @Test
    @DisplayName("Z1, L1 catch a close() that never returns (BrokenArcs.closeHangs)")
    void catchesCloseHangs() {
        FrayExplorer.assertCaught("waiters-arc-close-hangs", CATCH,
                () -> readersOverflowTheCache(BrokenArcs::closeHangs));
    }

    @Test
    @DisplayName("N1 catches a size update outside its lock (BrokenArcs.unlockedSizeUpdate)")
    void catchesUnlockedSizeUpdate() {
        FrayExplorer.assertCaught("waiters-arc-unlocked-size-update", CATCH,
                () -> readersOverflowTheCache(BrokenArcs::unlockedSizeUpdate));
    }
}
