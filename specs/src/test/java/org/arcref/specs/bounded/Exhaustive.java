package org.arcref.specs.bounded;

import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.specs.lincheck.ExploredSchedules.Exploration;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.jetbrains.kotlinx.lincheck.strategy.ManagedDeadlockFailure;
import org.jetbrains.kotlinx.lincheck.strategy.ManagedLivelockFailure;
import org.jetbrains.kotlinx.lincheck.strategy.TimeoutFailure;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.LincheckSettings;

/**
 * Runs a scenario under Lincheck 3.7's model checker until its interleaving tree is used up, and fails unless it
 * was: the bound of the exhaustive layer ({@code docs/formal-models.md}, "What is established, and how").
 *
 * <p>Lincheck's {@code ModelCheckingStrategy} never repeats an interleaving and raises its switch bound whenever every
 * interleaving within the current one ran; when raising it adds none, {@code nextInvocation()} returns false and the
 * run ends (lincheck-3.6's {@code ModelCheckingStrategy.kt}, {@code InterleavingTreeNode.nextInterleaving}, and
 * {@code Strategy.runIteration}). So a run that ends with fewer invocations than its budget ran every interleaving
 * the checker can tell apart. {@link ExhaustionToyTest} shows that on a bug only one interleaving reaches.
 *
 * <p>The bound, as the checker defines it: sequentially consistent memory; a switch point before every read or
 * write of a field or array element of an object more than one thread can reach, every monitor enter and exit,
 * park and unpark, thread start, join and end. {@code ReentrantLock} and {@code Condition} are analysed inside the
 * JDK like any other code: their internal accesses are switch points too (a trace of
 * {@code EvictWaitersExhaustiveTest} shows a switch inside {@code ReentrantLock.Sync.initialTryLock}, before its
 * compare-and-set of the lock's state). A loop that runs {@link #SETTINGS}' 100 iterations without another thread
 * being able to make progress is a spin cycle: the checker switches there instead of running it further, and a
 * thread with no other thread to switch to is reported as hung.
 *
 * <p>Two modes: {@link #exhaust} requires the tree used up; {@link #upToSwitches}, for trees too large for that,
 * requires every schedule with at most a given number of switches ({@link Exploration#completeBound()}), and
 * {@link #refute} requires a broken variant's violation within that same bound. Both modes refuse a run in which
 * the checker never had two schedules to choose between ({@link ExhaustionToyTest} shows it).
 */
public final class Exhaustive {
    /**
     * Lincheck's settings for every exhaustive run: the standard library analysed; 100 loop iterations before a
     * switch is forced (the aggsum constructor fills 64 home slots before the threads start); loop bound 200;
     * recursion bound 20.
     */
    public static final LincheckSettings SETTINGS = new LincheckSettings(true, 100, 200, 20);

    private Exhaustive() {
    }

    /**
     * Runs {@code scenario} (which calls {@link ExploredSchedules#count()} first) with {@code budget} invocations and
     * requires that the tree was exhausted before the budget was.
     *
     * @return what ran
     * @throws AssertionError if the budget ran out first, or the scenario failed
     */
    public static Exploration exhaust(String name, int budget, Runnable scenario) {
        Exploration run = run(name, budget, scenario, () -> null);
        if (run.invocations() >= budget) {
            throw new AssertionError(name + ": the tree was not exhausted within " + budget + " invocations: " + run);
        }
        return run;
    }

    /**
     * The weaker bound, for trees too large to use up: runs {@code scenario} with {@code budget} invocations and
     * requires that every schedule with at most {@code switches} thread switches ran
     * ({@link Exploration#completeBound()}).
     *
     * @param hang names a hang ({@link #run})
     * @return what ran
     * @throws AssertionError if the budget ran out before that, or the scenario failed
     */
    public static Exploration upToSwitches(String name, int switches, int budget, Runnable scenario,
            Supplier<PropertyViolation> hang) {
        Exploration run = run(name, budget, scenario, hang);
        if (run.completeBound() < switches) {
            throw new AssertionError(name + ": not every schedule with at most " + switches + " switches ran within "
                    + budget + " invocations: " + run);
        }
        return run;
    }

    /**
     * Refuses a run in which the checker never had two schedules to choose between under any switch bound: then it
     * analysed no shared access of the scenario's threads (as when the object under test is built by a method
     * reference created outside the checker), and a tree "used up" in a handful of invocations proves nothing.
     */
    private static Exploration requireChoices(String name, Exploration run) {
        if (run.perBound().values().stream().allMatch(schedules -> schedules <= 1)) {
            throw new AssertionError(name + ": the checker met no choice between threads (one schedule per switch"
                    + " bound), so it analysed none of the scenario's shared accesses: " + run);
        }
        return run;
    }

    /**
     * A scenario with the switch bound its run covers and the invocations that reach it: every schedule with at most
     * {@code switches} switches, and one more ({@code docs/formal-models.md} has the counts).
     *
     * @param <S> the scenario's type
     * @param <V> the type of the variants of the protocol it runs on
     * @param subject what runs, first in the run's name ({@code zthr}, {@code waiters})
     * @param scenario the scenario
     * @param switches the bound every schedule of which must run
     * @param budget the invocations that reach it
     * @param run runs the scenario on a variant, once per invocation
     * @param hang names a hang ({@link #run})
     */
    public record Bounded<S, V>(String subject, S scenario, int switches, int budget, BiConsumer<S, V> run,
            Supplier<PropertyViolation> hang) {

        @Override
        public String toString() {
            return scenario + ", up to " + switches + " switches";
        }

        /**
         * {@link #upToSwitches} on a variant.
         *
         * @param variant the variant
         */
        public void check(V variant) {
            upToSwitches(name(variant), switches, budget, () -> run.accept(scenario, variant), hang);
        }

        /**
         * {@link Exhaustive#refute} on a broken variant.
         *
         * @param variant the variant
         * @return the property its violation names
         */
        public Property refute(V variant) {
            return Exhaustive.refute(name(variant), switches, budget, () -> run.accept(scenario, variant), hang)
                    .property();
        }

        private String name(V variant) {
            return subject + " " + this + " on " + variant;
        }
    }

    /**
     * Runs {@code scenario} on a broken variant with the budget and switch bound of {@link #upToSwitches} and
     * returns the violation that refutes it, which must be found within that bound.
     *
     * @param hang names a hang ({@link #run})
     * @return the scenario's violation ({@link ExploredSchedules#violationIn})
     * @throws AssertionError if no failure was found, or only with more than {@code switches} switches, or the
     *     failure is not a scenario's violation
     */
    public static PropertyViolation refute(String name, int switches, int budget, Runnable scenario,
            Supplier<PropertyViolation> hang) {
        try {
            Exploration run = run(name, budget, scenario, hang);
            throw new AssertionError(name + ": not refuted: " + run);
        } catch (PropertyViolation | LincheckAssertionError failure) {
            int reached = ExploredSchedules.since(budget).perBound().keySet().stream().mapToInt(Integer::intValue)
                    .max().orElse(-1);
            if (reached > switches) {
                throw new AssertionError(name + ": refuted only with " + reached + " switches, more than "
                        + switches, failure);
            }
            PropertyViolation violation = ExploredSchedules.violationIn(failure);
            System.out.println("Lincheck " + name + ": refuted: " + violation.property() + ": " + violation.detail());
            return violation;
        }
    }

    /**
     * Runs {@code scenario} with {@code budget} invocations for a scenario whose blocking calls each stand for a
     * liveness property: when Lincheck reports that an invocation hung (every unfinished thread blocked, or
     * spinning without progress: its deadlock, livelock or time-out verdicts), the failure thrown is {@code hang}'s
     * violation, which names the property of the call that did not return, with Lincheck's report as its state and
     * the report's error as its cause.
     *
     * @param hang the violation to throw for a hang, read after the hung invocation (from the scenario's ghost
     *     state: which blocking calls had begun and not returned); it returns null when no scenario call was left
     *     unreturned, and then Lincheck's report is thrown as it is
     * @throws PropertyViolation {@code hang}'s, if an invocation hung
     */
    static Exploration run(String name, int budget, Runnable scenario, Supplier<PropertyViolation> hang) {
        try {
            return requireChoices(name, ExploredSchedules.run(name, budget, SETTINGS, scenario));
        } catch (LincheckAssertionError failure) {
            LincheckFailure found = failure.getFailure$lincheck();
            if (found instanceof ManagedDeadlockFailure || found instanceof ManagedLivelockFailure
                    || found instanceof TimeoutFailure) {
                PropertyViolation named = hang.get();
                if (named != null) {
                    PropertyViolation violation = new PropertyViolation(named.property(),
                            "an invocation hung (" + found.getClass().getSimpleName() + "): " + named.detail(),
                            failure.getMessage());
                    violation.initCause(failure);
                    throw violation;
                }
            }
            throw failure;
        }
    }

    /** Joins {@code thread}, uninterruptibly as the scenarios need. */
    public static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
