package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.bounded.Exhaustive.Bounded;
import org.arcref.specs.bounded.Exhaustive;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * L1, R8 and R9 on the real eviction waiter queue ({@link EvictWaiters}) and the real evict zthr
 * ({@link Evictor#threaded}, a {@link Zthr} whose check is {@code arc_evict_needed}) under Lincheck's model checker,
 * every schedule of each scenario up to its switch bound ({@link Exhaustive#upToSwitches}): allocating threads take
 * {@code arc_wait_for_eviction}'s {@code ARC_OVF_SEVERE} path ({@link EvictWaiters#enqueue}, then
 * {@link Evictor#awaitRelease}) while the evict zthr runs its passes, each one sublist visit that evicts 1
 * ({@link EvictWaiters#addEvicted}, free memory plentiful, so releases by count are allowed) and an end with
 * eviction no longer needed ({@link EvictWaiters#endPass}); then the cache closes ({@link Evictor#shutdown},
 * {@link EvictWaiters#shutdown}). Model M3's S1, S2 and L1 ({@code docs/formal-models.md}), checked against ghost
 * state kept in ignored sections:
 * <ul>
 *   <li>R8 (S1): right after each enqueue the queued counts do not decrease from head to tail.</li>
 *   <li>R9 (S2): right after each visit and each pass end, the evictor asks the queue whether each waiter it knows of
 *       is still queued ({@link EvictWaiters#isQueued}); one that left the queue during a visit was released by
 *       count, so by then at least its amount was evicted since it queued: the ghost tally of the visits' evictions
 *       begun by that visit, less those completed before it queued, is at least its amount. The tally is the test's
 *       own, not {@code arc_evict_count}; a waiter whose release the evictor may have missed (it had not yet noted the
 *       waiter when it looked) claims nothing.</li>
 *   <li>L1: every allocation returns. One that never does makes the invocation hang, which Lincheck reports; the
 *       failure then names L1 and the unreturned allocations.</li>
 * </ul>
 * The bound is {@code ZthrExhaustiveTest}'s: these trees hold the zthr's and the queue's
 * locks, which Lincheck 3.7 interleaves inside the JDK, and are not used up (one allocation against the evict zthr
 * had not used its tree up after 5,000 invocations, {@code docs/formal-models.md}); every schedule with at most 3
 * switches runs. No loop spins (the waits are condition
 * waits), so the spin bound cuts nothing. Not covered: free memory below {@code arc_sys_free / 2} (deferred
 * releases), passes that stay needed, the lock-free {@code ARC_OVF_SOME} path, and sizes: model M3's bounds cover
 * those.
 */
class EvictWaitersExhaustiveTest {
    private static final long SYS_FREE = 1L << 20;

    /**
     * Ghost state of the current invocation; touched only in ignored sections: the evictions the visits began and
     * completed; the evict zthr's threads; per allocating thread, the amount it waits for ({@code PENDING}, until it
     * returns), its waiter once {@code enqueue} returned, whether the evictor saw its release ({@code SEEN}), at a
     * visit with how much evicted by then ({@code BY_COUNT}), or may have missed it ({@code UNCERTAIN}: a release
     * check ran while the thread's waiter was not yet known).
     */
    private static final class Ghost {
        static long evictedBegun;
        static long evictedDone;
        static final List<Thread> WORKERS = new ArrayList<>();
        static final Map<Thread, Long> PENDING = new LinkedHashMap<>();
        static final Map<Thread, EvictWaiters.Waiter> WAITERS = new LinkedHashMap<>();
        static final Set<Thread> SEEN = new HashSet<>();
        static final Map<Thread, Long> BY_COUNT = new HashMap<>();
        static final Set<Thread> UNCERTAIN = new HashSet<>();

        static Void reset() {
            evictedBegun = 0;
            evictedDone = 0;
            WORKERS.clear();
            PENDING.clear();
            WAITERS.clear();
            SEEN.clear();
            BY_COUNT.clear();
            UNCERTAIN.clear();
            return null;
        }

        static Void evictorRuns() {
            if (!WORKERS.contains(Thread.currentThread())) {
                WORKERS.add(Thread.currentThread());
            }
            return null;
        }

        /** The waiters whose release the evictor has not seen; threads whose waiter is not known become uncertain. */
        static Map<Thread, EvictWaiters.Waiter> watched() {
            for (Thread t : PENDING.keySet()) {
                if (!WAITERS.containsKey(t)) {
                    UNCERTAIN.add(t);
                }
            }
            Map<Thread, EvictWaiters.Waiter> watched = new LinkedHashMap<>(WAITERS);
            watched.keySet().removeAll(SEEN);
            return watched;
        }

        /** Forgets an allocation that returned; its thread may allocate again. */
        static Void returned(Thread t) {
            PENDING.remove(t);
            WAITERS.remove(t);
            SEEN.remove(t);
            BY_COUNT.remove(t);
            UNCERTAIN.remove(t);
            return null;
        }
    }

    /** The waiter queues under test: the real one, and {@link BrokenArcs}' waiter variants. */
    enum Variant {
        REAL, WAITER_COUNT_WITHOUT_MAX, WAKE_CONDITIONS_DIFFER, SLEEPS_WITHOUT_WAKING;

        EvictWaiters create(Runnable wakeEvictor) {
            AdjustableMemory memory = new AdjustableMemory(1L << 30);
            return switch (this) {
                case REAL -> new EvictWaiters(memory, SYS_FREE, wakeEvictor);
                case WAITER_COUNT_WITHOUT_MAX -> BrokenArcs.WAITER_COUNT_WITHOUT_MAX.create(memory, SYS_FREE,
                        wakeEvictor);
                case WAKE_CONDITIONS_DIFFER -> BrokenArcs.WAKE_CONDITIONS_DIFFER.create(memory, SYS_FREE, wakeEvictor);
                case SLEEPS_WITHOUT_WAKING -> BrokenArcs.SLEEPS_WITHOUT_WAKING.create(memory, SYS_FREE, wakeEvictor);
            };
        }
    }

    /** A scenario: the amounts the main thread's allocations wait for, and those of a second allocating thread. */
    record Scenario(List<Long> main, List<Long> other) {
        @Override
        public String toString() {
            return "alloc" + main + " | alloc" + other;
        }
    }

    /**
     * The evict zthr's pass ({@code arc_evict_cb}): one visit evicting 1, then an end that releases every waiter.
     * After each, the waiters it released are noted: after the visit as released by count.
     */
    private static void pass(EvictWaiters waiters) {
        ExploredSchedules.ghost(() -> {
            Ghost.evictorRuns();
            return Ghost.evictedBegun++;
        });
        waiters.addEvicted(1);
        ExploredSchedules.ghost(() -> Ghost.evictedDone++);
        noteReleases(waiters, true);
        waiters.endPass(() -> false);
        noteReleases(waiters, false);
    }

    /** Notes which watched waiters are no longer queued; {@code byCount}: right after a visit. */
    private static void noteReleases(EvictWaiters waiters, boolean byCount) {
        Map<Thread, EvictWaiters.Waiter> watched = ExploredSchedules.ghost(() -> Ghost.watched());
        for (Map.Entry<Thread, EvictWaiters.Waiter> entry : watched.entrySet()) {
            if (!waiters.isQueued(entry.getValue())) {
                ExploredSchedules.ghost(() -> {
                    if (Ghost.WAITERS.get(entry.getKey()) != entry.getValue()) {
                        return null; // that allocation returned meanwhile, and its thread may wait again
                    }
                    Ghost.SEEN.add(entry.getKey());
                    return byCount ? Ghost.BY_COUNT.put(entry.getKey(), Ghost.evictedBegun) : null;
                });
            }
        }
    }

    /** One allocation waiting for {@code amount}: enqueue, check R8, wait, check R9. */
    private static void allocate(EvictWaiters waiters, Evictor evictor, long amount) {
        Thread self = Thread.currentThread();
        long doneBefore = ExploredSchedules.ghost(() -> {
            Ghost.PENDING.put(self, amount);
            return Ghost.evictedDone;
        });
        EvictWaiters.Waiter w = waiters.enqueue(amount);
        ExploredSchedules.ghost(() -> Ghost.WAITERS.put(self, w));
        List<Long> counts = waiters.counts();
        for (int i = 1; i < counts.size(); i++) {
            if (counts.get(i - 1) > counts.get(i)) {
                throw new PropertyViolation(Property.R8, "queued counts decrease from head to tail: " + counts, "");
            }
        }
        evictor.awaitRelease(waiters, w);
        Long evictedAtRelease = ExploredSchedules.ghost(() -> {
            Long byCount = Ghost.UNCERTAIN.contains(self) ? null : Ghost.BY_COUNT.get(self);
            Ghost.returned(self);
            return byCount;
        });
        if (evictedAtRelease != null && evictedAtRelease - doneBefore < amount) {
            throw new PropertyViolation(Property.R9, "a waiter for " + amount + " (count " + w.count + ") was"
                    + " released by count after at most " + (evictedAtRelease - doneBefore)
                    + " evicted since it queued", "");
        }
    }

    /** One invocation of {@code scenario} on {@code variant}. */
    static void run(Scenario scenario, Variant variant) {
        ExploredSchedules.count();
        ExploredSchedules.ghost(Ghost::reset);
        Evictor[] evictor = new Evictor[1];
        EvictWaiters waiters = variant.create(() -> evictor[0].wakeup());
        evictor[0] = Evictor.threaded(new Evictor.Callbacks() {
            @Override
            public boolean check() {
                ExploredSchedules.ghost(Ghost::evictorRuns);
                return waiters.evictNeeded();
            }

            @Override
            public void run(BooleanSupplier cancelled) {
                pass(waiters);
            }

            @Override
            public void died(Error cause) {
                waiters.shutdown();
            }
        }, ZthrPriority.DEFCLSYSPRI);
        PropertyViolation[] found = new PropertyViolation[1];
        try {
            Thread other = null;
            if (!scenario.other().isEmpty()) {
                other = new Thread(() -> {
                    try {
                        for (long amount : scenario.other()) {
                            allocate(waiters, evictor[0], amount);
                        }
                    } catch (PropertyViolation e) {
                        found[0] = e;
                    }
                });
                other.start();
            }
            for (long amount : scenario.main()) {
                allocate(waiters, evictor[0], amount);
            }
            if (other != null) {
                Exhaustive.join(other);
            }
        } finally { // also after a violation: a worker left asleep would make Lincheck report a hang instead
            evictor[0].shutdown();
            waiters.shutdown();
        }
        if (found[0] != null) {
            throw found[0];
        }
        List<Thread> workers = ExploredSchedules.ghost(() -> List.copyOf(Ghost.WORKERS));
        for (Thread worker : workers) { // a loop, not a method reference, which Lincheck would not instrument
            Exhaustive.join(worker);
        }
    }

    /** The violation of a hung invocation: L1, naming the allocations that never returned; null if all returned. */
    private static PropertyViolation hang() {
        Map<Thread, Long> pending = ExploredSchedules.ghost(() -> new LinkedHashMap<>(Ghost.PENDING));
        return pending.isEmpty() ? null : new PropertyViolation(Property.L1, "allocations waiting for "
                + pending.values() + " were never released", "");
    }

    private static Scenario of(List<Long> main, List<Long> other) {
        return new Scenario(main, other);
    }

    /** @return the scenario with its switch bound and the invocations that reach it, run by {@link #run} */
    private static Bounded<Scenario, Variant> bounded(Scenario scenario, int switches, int budget) {
        return new Bounded<>("waiters", scenario, switches, budget, EvictWaitersExhaustiveTest::run,
                EvictWaitersExhaustiveTest::hang);
    }

    static final Bounded<Scenario, Variant> ONE_OF_1 = bounded(of(List.of(1L), List.of()), 3, 74);
    static final Bounded<Scenario, Variant> ONE_OF_2 = bounded(of(List.of(2L), List.of()), 3, 74);
    static final Bounded<Scenario, Variant> ONE_THEN_TWO = bounded(of(List.of(1L, 2L), List.of()), 3, 74);

    /** The default run's scenarios. */
    static Stream<Bounded<Scenario, Variant>> scenarios() {
        return Stream.of(ONE_OF_1, ONE_OF_2, ONE_THEN_TWO, bounded(of(List.of(1L), List.of(2L)), 3, 138),
                bounded(of(List.of(2L), List.of(1L)), 3, 138));
    }

    /** Starts and cancels one zthr outside the model checker: the one-time priority-mode log is not analysed. */
    @BeforeAll
    static void initialiseLoggingOutsideTheModelChecker() {
        Zthr.create("warm-up", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI).cancel();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    @DisplayName("L1, R8, R9: every schedule of the real waiter queue and evict zthr up to the switch bound")
    void upToTheSwitchBound(Bounded<Scenario, Variant> scenario) {
        scenario.check(Variant.REAL);
    }

    @Test
    @DisplayName("L1: the same bound refutes a waiter that sleeps without waking the evictor")
    void refutesSleepsWithoutWaking() {
        assertEquals(Property.L1, ONE_OF_1.refute(Variant.SLEEPS_WITHOUT_WAKING));
    }

    @Test
    @DisplayName("L1: the same bound refutes a pass end that releases only the waiters reached")
    void refutesWakeConditionsDiffer() {
        assertEquals(Property.L1, ONE_OF_2.refute(Variant.WAKE_CONDITIONS_DIFFER));
    }

    @Test
    @DisplayName("R9: the same bound refutes the waiter count without MAX (a waiter released too early)")
    void refutesWaiterCountWithoutMax() {
        assertEquals(Property.R9, ONE_THEN_TWO.refute(Variant.WAITER_COUNT_WITHOUT_MAX));
    }
}
