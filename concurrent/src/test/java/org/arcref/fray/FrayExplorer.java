package org.arcref.fray;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import kotlin.Unit;
import org.pastalab.fray.core.TestRunner;
import org.pastalab.fray.core.command.Configuration;
import org.pastalab.fray.core.command.ExecutionInfo;
import org.pastalab.fray.core.command.LambdaExecutor;
import org.pastalab.fray.core.command.NetworkDelegateType;
import org.pastalab.fray.core.command.SystemTimeDelegateType;
import org.pastalab.fray.core.randomness.ControlledRandom;
import org.pastalab.fray.core.randomness.Randomness;
import org.pastalab.fray.core.randomness.RandomnessProvider;
import org.pastalab.fray.core.scheduler.PCTScheduler;
import org.pastalab.fray.core.scheduler.POSScheduler;
import org.pastalab.fray.core.scheduler.RandomScheduler;
import org.pastalab.fray.core.scheduler.Scheduler;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a scenario of a few threads over the real classes under one of Fray's schedulers (controlled concurrency
 * testing: Fray's instrumented JDK serialises the threads and its scheduler picks, at every synchronisation point,
 * which one runs next), for a fixed number of schedules, and says how many of them ran to the end.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@link #explore} runs the scenario {@code schedules} times (or {@code -Dfray.iterations} times when that is
 *       positive), schedule i under a scheduler fed by its own seed, derived from {@code -Dfray.seed}, the scenario's
 *       name, the scheduler and i; so a run is reproducible from the seed, and each schedule from its own seed.</li>
 *   <li>A schedule that takes more than {@code maxSteps} scheduling steps is cut short by Fray (its
 *       {@code LivenessException}, which Fray itself does not report): PCT starves a thread that spins on a lock its
 *       holder never gets to release. Such a schedule is <em>dropped</em>: it is counted, never silently passed, and
 *       {@link Result#assertPassed} fails when fewer than {@code minCompleted} schedules ran to the end.</li>
 *   <li>A schedule fails when any of its threads throws (an assertion of the scenario's oracle included) or when
 *       Fray finds every thread blocked (a deadlock, or a lost wakeup: a thread waits for a signal nobody will
 *       send). Fray stops at the first failing schedule and saves it ({@code -Dfray.recordSchedule=true} also saves
 *       the step-by-step recording) under {@code -Dfray.reportRoot}; the failure message gives the command that
 *       replays that one schedule ({@code -Dfray.replay=SCHEDULER:SEED[:PCT_MAX_STEP]}).</li>
 *   <li>Outside Fray's JDK (the default surefire run, when {@code -Dtest} names a Fray test) the scenario is
 *       skipped by an assumption, visibly; the {@code fray} execution of {@code concurrent/pom.xml} runs it.</li>
 * </ul>
 * Fray does not model weak memory: a missing {@code volatile} stays JCStress's to find.
 */
public final class FrayExplorer {
    /*
     * Implementation overview. Fray's own JUnit annotations fix the scheduler's randomness to an unseeded
     * java.util.Random and pass no step bound, so this class drives fray-core's TestRunner directly: a Configuration
     * with a LambdaExecutor (the scenario), maxScheduledStep, the scheduler built from a seeded ControlledRandom, and
     * a RandomnessProvider that hands schedule i+1 its own seeded randomness (the runner calls it between
     * schedules). The scenario body counts itself in `started` and, only when every actor returned normally, in
     * `completed`; a LivenessException (the step bound) ends a schedule without either Fray or the body reporting
     * it, and shows up here as started - completed. PCT's next schedule depends on the longest schedule so far (its
     * maxStep), so the body reads it at the start of each schedule and the replay token carries it.
     */

    /** Fray's schedulers used here. */
    public enum Kind {
        /** A uniformly random enabled thread at every step. */
        RANDOM,
        /** Probabilistic concurrency testing: random thread priorities and three priority change points. */
        PCT,
        /** Partial-order sampling. */
        POS
    }

    /**
     * How many schedules a scenario runs, how many steps each may take, and the percentage of them that must run to
     * the end (the others were cut short by the step bound).
     */
    public record Budget(int schedules, int maxSteps, int minCompletedPercent) {
        public Budget {
            if (schedules < 1 || maxSteps < 1 || minCompletedPercent < 0 || minCompletedPercent > 100) {
                throw new IllegalArgumentException("need schedules >= 1, maxSteps >= 1, 0 <= minCompletedPercent <= "
                        + "100, were " + schedules + ", " + maxSteps + ", " + minCompletedPercent);
            }
        }
    }

    /** What one exploration found. */
    public record Result(String scenario, Kind kind, int requested, int minCompleted, int started, int completed,
                         Throwable failure, int failingSchedule, boolean failingCompleted, String replay, Path report,
                         long millis) {
        /** Started schedules that a step bound cut short. */
        public int dropped() {
            return started - completed - (failure == null || failingCompleted ? 0 : 1);
        }

        @Override
        public String toString() {
            return scenario + " [" + kind + "]: " + started + " of " + requested + " schedules started, "
                    + completed + " completed, " + dropped() + " dropped at the step bound, "
                    + (failure == null ? "no failure" : "failure at schedule " + failingSchedule + ": " + failure)
                    + " (" + millis + " ms)";
        }

        /**
         * Fails unless every requested schedule started, none failed, and at least the budget's share of them ran
         * to the end.
         */
        public Result assertPassed() {
            if (failure != null) {
                throw new AssertionError(this + "\n  saved in " + report + "\n  replay: " + replay, failure);
            }
            if (started != requested) {
                throw new AssertionError(this + ": Fray stopped before the requested schedules ran");
            }
            if (completed < minCompleted) {
                throw new AssertionError(this + ": fewer than " + minCompleted + " schedules ran to the end; the "
                        + "others are unchecked (raise the step bound or change the scheduler)");
            }
            return this;
        }
    }

    private static final Path REPORT_ROOT = Path.of(System.getProperty("fray.reportRoot", "target/fray-report"));
    /**
     * PCT places its priority change points among the first maxStep steps and sizes maxStep from the longest
     * schedule run so far; its first schedule would get 0, no change point at all, so it gets this guess instead.
     */
    private static final int PCT_FIRST_MAX_STEP = 200;
    /** Fray stops a run after this many seconds; {@link Result#assertPassed} fails if that cut schedules off. */
    private static final int RUN_TIMEOUT_SECONDS = 3600;

    private FrayExplorer() {
    }

    /** Whether this JVM is Fray's instrumented JDK with its agent (its release file names Fray). */
    public static boolean underFray() {
        try {
            return Files.readString(Path.of(System.getProperty("java.home"), "release")).contains("IMPLEMENTOR=Fray");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Runs {@code body} under scheduler {@code kind} for the budget's schedules (or {@code -Dfray.iterations}), or
     * the one schedule that {@code -Dfray.replay} names, and prints the result.
     *
     * @param scenario a name for the seed, the report folder and the messages
     * @param body one schedule of the scenario: starts its actors with {@link #actors}, joins them, checks its
     *             oracle by throwing
     */
    public static Result explore(String scenario, Kind kind, Budget budget, Runnable body) {
        Assumptions.assumeTrue(underFray(), "not on Fray's instrumented JDK; the fray execution runs this scenario");
        String testSelector = StackWalker.getInstance().walk(frames -> frames
                .filter(f -> f.getClassName().matches(".*\\.Fray[^.]*Test"))
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "#" + f.getMethodName())
                .findFirst().orElse("Fray*Test"));
        int schedules = Integer.getInteger("fray.iterations", 0) > 0 ? Integer.getInteger("fray.iterations")
                : budget.schedules();
        long baseSeed = Long.getLong("fray.seed", 20261202L);
        String replayToken = System.getProperty("fray.replay", "");
        boolean replaying = !replayToken.isBlank();
        Kind runKind = replaying ? Kind.valueOf(replayToken.split(":")[0]) : kind;
        long firstSeed = replaying ? Long.parseLong(replayToken.split(":")[1])
                : mix(baseSeed, scenario.hashCode(), kind.ordinal(), 0);
        int pctMaxStep = replaying && replayToken.split(":").length > 2 ? Integer.parseInt(replayToken.split(":")[2])
                : Math.min(budget.maxSteps(), PCT_FIRST_MAX_STEP);
        int runs = replaying ? 1 : schedules;

        Path report = REPORT_ROOT.resolve(scenario.replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + runKind);
        Counts counts = new Counts();
        List<Long> seeds = new ArrayList<>();
        seeds.add(firstSeed);
        RandomnessProvider provider = () -> {
            long seed = mix(baseSeed, scenario.hashCode(), kind.ordinal(), seeds.size());
            seeds.add(seed);
            return seeded(seed);
        };
        Scheduler scheduler = switch (runKind) {
            case RANDOM -> new RandomScheduler(seeded(firstSeed));
            case PCT -> new PCTScheduler(seeded(firstSeed), 3, pctMaxStep);
            case POS -> new POSScheduler(seeded(firstSeed));
        };
        Configuration[] config = new Configuration[1];
        List<Integer> pctSteps = new ArrayList<>();
        LambdaExecutor executor = new LambdaExecutor(() -> {
            counts.started++;
            pctSteps.add(config[0].getScheduler() instanceof PCTScheduler p ? p.getMaxStep() : 0);
            body.run();
            if (Actors.allReturned()) {
                counts.completed++;
                counts.lastCompleted = counts.started - 1;
            }
            return Unit.INSTANCE;
        });
        // ExecutionInfo: uncaught exceptions are failures, memory accesses are not interleaved, the step bound.
        // Configuration, after the report folder, schedules, timeout, scheduler and randomness: no full schedule
        // log, no explore mode (stop at the first failure), never exit the JVM on a failure, not a replay, Fray on,
        // no dummy run, no network or clock delegation (100 ms virtual-time step), a timed wait times out as soon
        // as no other thread can run, sleeps not turned into yields, no class-loader reset (the lambda's classes stay), stdout kept, threads not
        // aborted at the main thread's exit, no racing-operation hashes, no timeline coverage.
        config[0] = new Configuration(new ExecutionInfo(executor, false, false, budget.maxSteps()), report, runs,
                RUN_TIMEOUT_SECONDS, scheduler, provider, false, false, true, false, false, false,
                NetworkDelegateType.NONE, SystemTimeDelegateType.NONE, 100_000L, true, false, false, false, false,
                false, null);
        long start = System.nanoTime();
        Throwable failure = quietRunner(config[0]).run();
        long millis = (System.nanoTime() - start) / 1_000_000;
        int failing = failure == null ? -1 : counts.started - 1;
        String replay = "";
        if (failure != null) {
            String token = runKind + ":" + seeds.get(failing)
                    + (runKind == Kind.PCT ? ":" + pctSteps.get(failing) : "");
            replay = "mvn -B -ntp -pl concurrent -am verify -Dsurefire.failIfNoSpecifiedTests=false -Dtest='"
                    + testSelector + "' -Dfray.replay=" + token;
        }
        Result result = new Result(scenario, runKind, runs, runs * budget.minCompletedPercent() / 100, counts.started,
                counts.completed, failure, failing, failure != null && counts.lastCompleted == failing, replay, report,
                millis);
        System.out.println("fray: " + result + (failure == null ? "" : "\n  saved in " + report
                + "\n  replay: " + replay));
        return result;
    }

    /**
     * Runs a broken variant's scenario under RANDOM and then PCT for {@code budget}'s schedules each (or
     * {@code -Dfray.iterations}) and fails unless at least one of them finds a failure; prints both results, which
     * say at which schedule each found it.
     */
    public static void assertCaught(String scenario, Budget budget, Runnable body) {
        Result random = explore(scenario, Kind.RANDOM, budget, body);
        Result pct = explore(scenario, Kind.PCT, budget, body);
        if (random.failure() == null && pct.failure() == null) {
            throw new AssertionError("the broken variant was not caught:\n  " + random + "\n  " + pct);
        }
    }

    /**
     * Starts one thread per actor and waits for all; call it once per schedule, from the scenario's body.
     *
     * @return whether every actor returned normally; false when the step bound cut the schedule short, and then
     *         the scenario must not check its oracle (the schedule is counted as dropped)
     */
    public static boolean actors(Runnable... actors) {
        Actors.run(actors);
        return Actors.allReturned();
    }

    /** The actors of the schedule in progress; Fray runs one schedule at a time on one main thread. */
    private static final class Actors {
        private static final AtomicInteger returned = new AtomicInteger();
        private static int expected;

        static void run(Runnable... actors) {
            returned.set(0);
            expected = actors.length;
            Thread[] threads = new Thread[actors.length];
            for (int i = 0; i < actors.length; i++) {
                Runnable actor = actors[i];
                threads[i] = new Thread(() -> {
                    actor.run();
                    returned.incrementAndGet();
                }, "actor-" + i);
            }
            for (Thread t : threads) {
                t.start();
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while joining the actors", e);
                }
            }
        }

        static boolean allReturned() {
            return returned.get() == expected;
        }
    }

    private static final class Counts {
        int started;
        int completed;
        int lastCompleted = -1;
    }

    /**
     * A TestRunner whose progress screen (cleared and redrawn with terminal escapes after every few schedules, on the
     * System.out it captures when built) is discarded; the scenario's own output and Fray's failure reports still
     * reach System.out.
     */
    private static TestRunner quietRunner(Configuration config) {
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return new TestRunner(config);
        } finally {
            System.setOut(out);
        }
    }

    private static Randomness seeded(long seed) {
        return new ControlledRandom(new ArrayList<>(), new ArrayList<>(), new Random(seed));
    }

    private static long mix(long seed, int scenario, int kind, int index) {
        long z = seed ^ ((long) scenario << 32) ^ ((long) kind << 24) ^ index * 0x9E37_79B9_7F4A_7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
