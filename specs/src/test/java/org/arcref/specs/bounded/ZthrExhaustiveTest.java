package org.arcref.specs.bounded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.bounded.Exhaustive.Bounded;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.zthr.ExitKeepsWaitersZthr;
import org.arcref.zthr.HeldStartZthr;
import org.arcref.zthr.LostWakeupZthr;
import org.arcref.zthr.Pre8229Zthr;
import org.arcref.zthr.RequestLockedWakeupZthr;
import org.arcref.zthr.StartupSleepZthr;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrCheckFunc;
import org.arcref.zthr.ZthrFunc;
import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Z1 to Z5 on the real {@link Zthr} under Lincheck's model checker, every schedule of each scenario up to its switch
 * bound ({@link Exhaustive#upToSwitches}): the zthr is created inside the invocation (so its worker is a thread the
 * checker schedules), one or two scenario threads call {@code wakeup}, {@code cancel}, {@code resume} and
 * {@code waitCycleDone}, and the invocation ends with every thread stopped. The zthr's work is a counter of pending
 * work: {@code wakeup} stands for a producer that first raises {@code requested}; the check function is
 * {@code served < requested}; the work function sets {@code served = requested}. In a scenario with a syncer (model
 * M2's {@code spa_sync}), the work function then waits, on a monitor, until the syncer completed its txg, which the
 * syncer does after its own {@code wakeup()} returned.
 *
 * <p>The bound. These trees are not used up: Lincheck 3.7 has no partial-order reduction, and every access of the
 * zthr's own fields (under its state lock), of the work counters, every monitor event, thread start and join, and
 * accesses inside the JDK's {@code ReentrantLock} are switch points, so the schedules per switch bound grow
 * several-fold with each switch; even one {@code wakeup} against the worker had not used its tree up after 5,000
 * invocations, nor after 50,000 with the zthr's locks replaced by locks on one Java monitor, whose operations have
 * no switch points but the monitor's events ({@code docs/formal-models.md} has the figures). What runs instead,
 * and is required: every schedule with at most the scenario's number of switches (3 or 4 by default; 4 with
 * {@code -Dbounded.large=true}), where a switch is the checker's choice to run another thread at a switch point
 * ({@link Exhaustive}'s Javadoc lists them; being blocked is not a switch). No loop of the zthr spins (its waits are
 * condition waits), so the spin bound cuts nothing; the final wait for the work and the work function's wait for the
 * txg are monitor waits.
 *
 * <p>The checks, against ghost state kept in ignored sections, not against the zthr's fields:
 * <ul>
 *   <li>Z1: no check or work function runs after a {@code cancel()} returned unless a {@code resume()} began since
 *       (a cancel during which a resume began claims nothing, since their order is the request lock's); after the
 *       last cancel every worker thread the check function saw ends ({@code join}).</li>
 *   <li>Z2 (wakeup takes only the state lock, so it never waits behind a cancel): the syncer's {@code wakeup()}
 *       returns, also while a cancel holds the request lock and waits for a work function that waits for the
 *       syncer.</li>
 *   <li>Z3: when {@code waitCycleDone()} returns, every work function that began before the call has returned; and
 *       it returns. (Not that an iteration began after the call: a worker asleep at the call is woken and releases
 *       the waiter without a new check, in zthr.c as here.)</li>
 *   <li>Z4: {@code resume()} returns, never meeting a cancel in progress ({@code Pre8229Zthr}'s own assertion).</li>
 *   <li>Z5 (no lost wakeup): after the scenario threads end, {@code resume()} if a scenario thread cancelled (a
 *       restart), and then, without another wakeup, the main thread waits until the work requested by the scenario
 *       is served: a worker asleep with work pending never serves it.</li>
 * </ul>
 * A call that never returns makes the invocation hang; Lincheck reports that, and the failure names the property of
 * the first unreturned call in the order Z2 (the syncer, whose blocked wakeup leaves the others waiting), Z5 (the
 * final wait), Z3 ({@code waitCycleDone}), Z1 ({@code cancel}), Z4 ({@code resume}), Z5 ({@code wakeup}).
 *
 * <p>Not covered: the timer (Lincheck freezes {@code System.nanoTime()}; these zthrs have none),
 * isCancelled/hasWaiters polling, and Z2's rule that the check runs under the state lock and the work without it
 * ({@code ZthrTest}).
 */
class ZthrExhaustiveTest {
    /**
     * Ghost state of the current invocation; touched only in ignored sections. {@code stopped}: a cancel returned
     * and no resume began since; {@code resumesBegun}, {@code resumesActive}: resume calls begun, and not yet
     * returned; {@code workBegun}, {@code workEnded}: work function calls; {@code workers}: the threads that ran
     * the check function; {@code pending}: each unreturned call, by thread; {@code violations}: what the worker saw.
     */
    private static final class Ghost {
        static boolean stopped;
        static int resumesBegun;
        static int resumesActive;
        static int workBegun;
        static int workEnded;
        static final List<Thread> WORKERS = new ArrayList<>();
        static final Map<Thread, Op> PENDING = new LinkedHashMap<>();
        static final List<PropertyViolation> VIOLATIONS = new ArrayList<>();

        static Void reset() {
            stopped = false;
            resumesBegun = 0;
            resumesActive = 0;
            workBegun = 0;
            workEnded = 0;
            WORKERS.clear();
            PENDING.clear();
            VIOLATIONS.clear();
            return null;
        }

        /** Z1, on the worker's thread: a check or work function may run only while no cancel holds. */
        static Void workerRuns(String what) {
            if (!WORKERS.contains(Thread.currentThread())) {
                WORKERS.add(Thread.currentThread());
            }
            if (stopped) {
                VIOLATIONS.add(new PropertyViolation(Property.Z1, "the " + what + " function ran after cancel()"
                        + " returned, with no resume() begun since", ""));
            }
            return null;
        }
    }

    /**
     * The work: producers raise {@code requested}; only the work function moves {@code served} up to it. In a
     * scenario with a syncer, the work function then waits until the syncer completed its txg, as a zthr's work in
     * ZFS waits for {@code spa_sync} ({@code txg_wait_synced}).
     */
    private static final class Work {
        final AtomicInteger requested = new AtomicInteger();
        final AtomicInteger served = new AtomicInteger();
        /** Whether the work function waits for the syncer's txg. */
        private final boolean awaitsTxg;
        /** The syncer completed its txg; guarded by this object's monitor. */
        private boolean synced;
        final ZthrCheckFunc check = z -> {
            ExploredSchedules.ghost(() -> Ghost.workerRuns("check"));
            return served.get() < requested.get();
        };
        final ZthrFunc func = z -> serve();

        Work(boolean awaitsTxg) {
            this.awaitsTxg = awaitsTxg;
        }

        /** The work function. */
        private void serve() {
            ExploredSchedules.ghost(() -> {
                Ghost.workerRuns("work");
                Ghost.workBegun++;
                return null;
            });
            served.set(requested.get());
            if (awaitsTxg) {
                awaitTxg();
            }
            ExploredSchedules.ghost(() -> Ghost.workEnded++);
            synchronized (this) {
                notifyAll();
            }
        }

        /** Waits, without waking the zthr, until everything requested was served. */
        synchronized void awaitServed() {
            while (served.get() < requested.get()) {
                waitHere();
            }
        }

        private synchronized void awaitTxg() {
            while (!synced) {
                waitHere();
            }
        }

        /** The syncer's txg is complete: the work functions waiting for it return. */
        synchronized void completeTxg() {
            synced = true;
            notifyAll();
        }

        private void waitHere() {
            try {
                wait();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The zthr classes the scenarios run on: the real one, and the broken variants of the test sources. */
    enum Variant {
        REAL, LOST_WAKEUP, PRE_8229, STARTUP_SLEEP, EXIT_KEEPS_WAITERS, REQUEST_LOCKED_WAKEUP;

        Zthr create(Work work) {
            return switch (this) {
                case REAL -> Zthr.create("bounded", work.check, work.func, ZthrPriority.DEFCLSYSPRI);
                case LOST_WAKEUP -> LostWakeupZthr.create("bounded", work.check, work.func, ZthrPriority.DEFCLSYSPRI);
                case PRE_8229 -> Pre8229Zthr.create("bounded", work.check, work.func, ZthrPriority.DEFCLSYSPRI);
                case STARTUP_SLEEP -> started(StartupSleepZthr.create("bounded", work.check, work.func));
                case EXIT_KEEPS_WAITERS -> started(ExitKeepsWaitersZthr.create("bounded", work.check, work.func));
                case REQUEST_LOCKED_WAKEUP -> RequestLockedWakeupZthr.create("bounded", work.check, work.func,
                        ZthrPriority.DEFCLSYSPRI);
            };
        }

        private static Zthr started(HeldStartZthr zthr) {
            zthr.startHeldWorker();
            return zthr;
        }

        /**
         * The last resume, with the scenario threads ended: {@code resume()} on the real zthr; on
         * {@code Pre8229Zthr}, whose resume rejected a running zthr, only if stopped; on the variants that hold each
         * new worker, that worker then started.
         */
        void resumeAtEnd(Zthr zthr) {
            switch (this) {
                case REAL, LOST_WAKEUP, REQUEST_LOCKED_WAKEUP -> zthr.resume();
                case PRE_8229 -> {
                    if (!zthr.isRunning()) {
                        zthr.resume();
                    }
                }
                case STARTUP_SLEEP, EXIT_KEEPS_WAITERS -> {
                    if (!zthr.isRunning()) {
                        zthr.resume();
                        ((HeldStartZthr) zthr).startHeldWorker();
                    }
                }
            }
        }
    }

    /** One call of a scenario thread, and the property its never returning breaks. */
    record Op(String name, Property hangs, Call call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** What an operation does to the zthr under test. */
    @FunctionalInterface
    interface Call {
        void run(Zthr zthr, Work work);
    }

    /** A producer: publishes one unit of work, then wakes the zthr. */
    static final Op WAKEUP = new Op("wakeup", Property.Z5, (zthr, work) -> {
        work.requested.incrementAndGet();
        zthr.wakeup();
    });

    /**
     * The syncer ({@code spa_sync} in ZFS): publishes one unit of work, wakes the zthr, then completes the txg that
     * the work function waits for. Its {@code wakeup()} must not block behind a cancel in progress, which waits for
     * that work function (Z2: wakeup takes only the state lock).
     */
    static final Op SYNCER = new Op("syncer", Property.Z2, (zthr, work) -> {
        WAKEUP.call().run(zthr, work);
        work.completeTxg();
    });

    static final Op CANCEL = new Op("cancel", Property.Z1, (zthr, work) -> {
        int resumesBefore = ExploredSchedules.ghost(() -> Ghost.resumesBegun);
        zthr.cancel();
        ExploredSchedules.ghost(() -> {
            if (Ghost.resumesActive == 0 && Ghost.resumesBegun == resumesBefore) {
                Ghost.stopped = true;
            }
            return null;
        });
    });

    static final Op RESUME = new Op("resume", Property.Z4, (zthr, work) -> {
        ExploredSchedules.ghost(() -> {
            Ghost.stopped = false;
            Ghost.resumesBegun++;
            return Ghost.resumesActive++;
        });
        zthr.resume();
        ExploredSchedules.ghost(() -> Ghost.resumesActive--);
    });

    /** The resume of callers before the request lock existed ({@code Pre8229Zthr}): only a zthr not running. */
    static final Op RESUME_IF_STOPPED = new Op("resumeIfStopped", Property.Z4, (zthr, work) -> {
        if (!zthr.isRunning()) {
            RESUME.call().run(zthr, work);
        }
    });

    static final Op WAIT_CYCLE_DONE = new Op("waitCycleDone", Property.Z3, (zthr, work) -> {
        int begunBefore = ExploredSchedules.ghost(() -> Ghost.workBegun);
        zthr.waitCycleDone();
        int ended = ExploredSchedules.ghost(() -> Ghost.workEnded);
        if (ended < begunBefore) {
            throw new PropertyViolation(Property.Z3, "waitCycleDone() returned while a work function begun before"
                    + " the call was still running (" + begunBefore + " begun, " + ended + " ended)", "");
        }
    });

    /** The final wait: the work requested is served without another wakeup. */
    private static final Op SERVED = new Op("awaitServed", Property.Z5, (zthr, work) -> work.awaitServed());
    /** The final cancel. */
    private static final Op LAST_CANCEL = new Op("last cancel", Property.Z1, CANCEL.call());

    /** A scenario: the operations of the main thread and of the other scenario thread. */
    record Scenario(List<Op> main, List<Op> other) {
        @Override
        public String toString() {
            return main + " | " + other;
        }

        /** Whether a scenario thread cancels, so that the end resumes the zthr before it waits for the work. */
        boolean cancels() {
            return has(CANCEL);
        }

        /** Whether a syncer runs, so that the work function waits for its txg. */
        boolean syncs() {
            return has(SYNCER);
        }

        private boolean has(Op op) {
            return Stream.concat(main.stream(), other.stream()).anyMatch(each -> each == op);
        }
    }

    /** Runs {@code op} on the current thread, marking it pending (in the ghost state) until it returns. */
    private static void call(Op op, Zthr zthr, Work work) {
        ExploredSchedules.ghost(() -> Ghost.PENDING.put(Thread.currentThread(), op));
        op.call().run(zthr, work);
        ExploredSchedules.ghost(() -> Ghost.PENDING.remove(Thread.currentThread()));
    }

    /** One invocation of {@code scenario} on {@code variant}. */
    static void run(Scenario scenario, Variant variant) {
        ExploredSchedules.count();
        ExploredSchedules.ghost(Ghost::reset);
        Work work = new Work(scenario.syncs());
        Zthr zthr = variant.create(work);
        PropertyViolation[] found = new PropertyViolation[1];
        try {
            Thread other = null;
            if (!scenario.other().isEmpty()) {
                other = new Thread(() -> {
                    try {
                        for (Op op : scenario.other()) {
                            call(op, zthr, work);
                        }
                    } catch (PropertyViolation e) {
                        found[0] = e;
                    }
                });
                other.start();
            }
            for (Op op : scenario.main()) {
                call(op, zthr, work);
            }
            if (other != null) {
                Exhaustive.join(other);
            }
            if (found[0] != null) {
                throw found[0];
            }
        } catch (PropertyViolation e) { // a worker left asleep would make Lincheck report a hang instead
            zthr.cancel();
            throw e;
        }
        if (scenario.cancels()) {
            ExploredSchedules.ghost(() -> {
                Ghost.stopped = false;
                return null;
            });
            variant.resumeAtEnd(zthr);
        }
        if (ExploredSchedules.ghost(() -> work.served.get() < work.requested.get())) {
            call(SERVED, zthr, work);
        }
        call(LAST_CANCEL, zthr, work);
        List<Thread> workers = ExploredSchedules.ghost(() -> List.copyOf(Ghost.WORKERS));
        for (Thread worker : workers) { // a loop, not a method reference, which Lincheck would not instrument
            Exhaustive.join(worker);
        }
        List<PropertyViolation> seen = ExploredSchedules.ghost(() -> List.copyOf(Ghost.VIOLATIONS));
        if (!seen.isEmpty()) {
            throw seen.get(0);
        }
    }

    /** The violation of a hung invocation: the first unreturned call, in the order of the class comment; or null. */
    private static PropertyViolation hang() {
        Map<Thread, Op> pending = ExploredSchedules.ghost(() -> new LinkedHashMap<>(Ghost.PENDING));
        List<Op> order = List.of(SYNCER, SERVED, WAIT_CYCLE_DONE, CANCEL, LAST_CANCEL, RESUME, RESUME_IF_STOPPED,
                WAKEUP);
        for (Op op : order) {
            if (pending.containsValue(op)) {
                return new PropertyViolation(op.hangs(), op + " never returned; unreturned calls: "
                        + pending.values(), "");
            }
        }
        return null;
    }

    private static Scenario of(List<Op> main, List<Op> other) {
        return new Scenario(main, other);
    }

    /** @return the scenario with its switch bound and the invocations that reach it, run by {@link #run} */
    private static Bounded<Scenario, Variant> bounded(Scenario scenario, int switches, int budget) {
        return new Bounded<>("zthr", scenario, switches, budget, ZthrExhaustiveTest::run, ZthrExhaustiveTest::hang);
    }

    static final Bounded<Scenario, Variant> WAKEUP_ALONE = bounded(of(List.of(WAKEUP), List.of()), 4, 1_674);
    static final Bounded<Scenario, Variant> WAIT_ALONE = bounded(of(List.of(WAIT_CYCLE_DONE), List.of()), 4, 2_651);
    static final Bounded<Scenario, Variant> CANCEL_VS_GUARDED_RESUME =
            bounded(of(List.of(CANCEL), List.of(RESUME_IF_STOPPED)), 3, 47);
    static final Bounded<Scenario, Variant> WAIT_VS_CANCEL =
            bounded(of(List.of(WAIT_CYCLE_DONE), List.of(CANCEL)), 3, 45);
    static final Bounded<Scenario, Variant> CANCEL_VS_SYNCER =
            bounded(of(List.of(CANCEL), List.of(SYNCER)), 3, 47);

    /** The default run's scenarios. */
    static Stream<Bounded<Scenario, Variant>> scenarios() {
        return Stream.of(WAKEUP_ALONE, WAIT_ALONE, bounded(of(List.of(CANCEL), List.of()), 4, 2_508),
                CANCEL_VS_GUARDED_RESUME, WAIT_VS_CANCEL,
                bounded(of(List.of(CANCEL), List.of(RESUME)), 3, 47),
                bounded(of(List.of(WAKEUP), List.of(WAIT_CYCLE_DONE)), 3, 29),
                bounded(of(List.of(WAKEUP), List.of(CANCEL)), 3, 29), CANCEL_VS_SYNCER);
    }

    /** The scenarios behind {@code -Dbounded.large=true}: 4 switches, where the default run covers 3 or none. */
    static Stream<Bounded<Scenario, Variant>> largeScenarios() {
        return Stream.of(
                bounded(of(List.of(RESUME), List.of()), 4, 3_845),
                bounded(of(List.of(WAKEUP, WAKEUP), List.of()), 4, 2_655),
                bounded(of(List.of(WAKEUP), List.of(WAKEUP)), 4, 4_426),
                bounded(of(List.of(WAKEUP), List.of(WAIT_CYCLE_DONE)), 4, 4_469),
                bounded(of(List.of(WAKEUP), List.of(CANCEL)), 4, 4_500),
                bounded(of(List.of(CANCEL), List.of(SYNCER)), 4, 8_183));
    }

    /** Starts and cancels one zthr outside the model checker: the one-time priority-mode log is not analysed. */
    @BeforeAll
    static void initialiseLoggingOutsideTheModelChecker() {
        Zthr.create("warm-up", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI).cancel();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    @DisplayName("Z1-Z5: every schedule of the real zthr up to the scenario's switch bound")
    void upToTheSwitchBound(Bounded<Scenario, Variant> scenario) {
        scenario.check(Variant.REAL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("largeScenarios")
    @DisplayName("Z1-Z5: every schedule of the real zthr up to 4 switches (-Dbounded.large=true)")
    void upToTheSwitchBoundLarge(Bounded<Scenario, Variant> scenario) {
        assumeTrue(Boolean.getBoolean("bounded.large"), "larger trees run with -Dbounded.large=true");
        scenario.check(Variant.REAL);
    }

    /**
     * A signal sent between the unlocked check and the sleep is lost. The first such schedule Lincheck meets loses
     * the last cancel's signal: the worker had served the work, checked again, and sleeps while the canceller waits
     * for it to exit, so {@code cancel()} never returns (Z1).
     */
    @Test
    @DisplayName("Z1: the same bound refutes a zthr that checks without the state lock (a cancel's signal lost)")
    void refutesLostWakeup() {
        assertEquals(Property.Z1, WAKEUP_ALONE.refute(Variant.LOST_WAKEUP));
    }

    /**
     * The canceller holds the request lock while it waits for the worker, the worker's work function waits for the
     * syncer's txg, and the syncer's wakeup waits for the request lock: none of the three returns (Z2).
     */
    @Test
    @DisplayName("Z2: the same bound refutes a wakeup that takes the request lock (it waits behind a cancel)")
    void refutesRequestLockedWakeup() {
        assertEquals(Property.Z2, CANCEL_VS_SYNCER.refute(Variant.REQUEST_LOCKED_WAKEUP));
    }

    @Test
    @DisplayName("Z4: the same bound refutes cancel and resume without the request lock (a resume meets a cancel)")
    void refutesPre8229() {
        assertEquals(Property.Z4, CANCEL_VS_GUARDED_RESUME.refute(Variant.PRE_8229));
    }

    @Test
    @DisplayName("Z3: the same bound refutes zfs-2.1.1's start-up sleep (a waiter registered at start-up waits on)")
    void refutesStartupSleep() {
        assertEquals(Property.Z3, WAIT_ALONE.refute(Variant.STARTUP_SLEEP));
    }

    @Test
    @DisplayName("Z3: the same bound refutes zfs-2.1.1's exit path (a waiter of a cancelled starting worker waits on)")
    void refutesExitKeepsWaiters() {
        assertEquals(Property.Z3, WAIT_VS_CANCEL.refute(Variant.EXIT_KEEPS_WAITERS));
    }
}
