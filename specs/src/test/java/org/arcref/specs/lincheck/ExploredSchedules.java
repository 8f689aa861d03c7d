package org.arcref.specs.lincheck;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.arcref.property.PropertyViolation;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionResult;
import org.jetbrains.kotlinx.lincheck.strategy.LincheckFailure;
import org.jetbrains.kotlinx.lincheck.strategy.UnexpectedExceptionFailure;
import org.jetbrains.kotlinx.lincheck.strategy.ValidationFailure;
import org.jetbrains.kotlinx.lincheck.util.ExceptionResult;
import org.jetbrains.kotlinx.lincheck.util.LincheckResult;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.LincheckSettings;

/**
 * Counts the schedules Lincheck 3.7's model checker actually ran, so that a test can print the count and fail when
 * the search collapses instead of passing silently.
 *
 * <p>Contract: a scenario calls {@link #count()} once, as its first statement, in every invocation. {@link #run}
 * then reports how many invocations ran and, per switch bound L, how many of them ran while the checker's bound
 * was L. {@code runConcurrentTest} explores the schedules in order of their number of thread switches: it
 * enumerates every schedule with at most L switches (as its switch points see them), then raises L by one and
 * starts again. So when invocations ran with bound L + 1 (or the search ended before the invocation limit), every
 * schedule with at most L switches ran; {@link Exploration#completeBound()} is the largest such L.
 *
 * <p>What it relies on, all of Lincheck 3.7 and none of it public API (the version is pinned in the root
 * {@code pom.xml}): the model checker's strategy is the current thread's event tracker, and
 * its switch bound is its field {@code maxNumberOfSwitches}; code inside an ignored section is not analysed, so
 * the counter's writes are not undone by the memory snapshot Lincheck restores after every invocation; and
 * {@code runConcurrentTestInternal}, the settings-taking form of {@link Lincheck#runConcurrentTest}. Replays
 * (after a failure, to collect its trace) are counted too, so a failing run's counts are not exact.
 */
public final class ExploredSchedules {

    /** Invocations per switch bound, since the last {@link #run} began. Written only in an ignored section. */
    private static final Map<Integer, Integer> PER_BOUND = new TreeMap<>();

    private ExploredSchedules() {
    }

    /**
     * What one exploration ran.
     *
     * @param invocations the invocations (schedules) run
     * @param perBound    invocations per switch bound, in order of the bound
     * @param limit       the invocation limit given to the checker
     */
    public record Exploration(int invocations, Map<Integer, Integer> perBound, int limit) {

        /**
         * The largest bound L such that every schedule with at most L switches ran, or -1 if not even the
         * schedules without a switch were all run.
         */
        public int completeBound() {
            if (perBound.isEmpty()) {
                return -1;
            }
            int highest = perBound.keySet().stream().mapToInt(Integer::intValue).max().getAsInt();
            return invocations < limit ? highest : highest - 1;
        }

        /** The schedules run with the bound {@link #completeBound()} in force (0 if none). */
        public int schedulesWithinCompleteBound() {
            return perBound.getOrDefault(completeBound(), 0);
        }

        @Override
        public String toString() {
            int bound = completeBound();
            return invocations + " invocations of at most " + limit + " (per switch bound: " + perBound + ")"
                    + (bound < 0 ? "; no switch bound completed"
                            : "; every schedule with at most " + bound + " switches ran ("
                                    + schedulesWithinCompleteBound() + " schedules)");
        }
    }

    /** Records one invocation under the current switch bound; call it first in every invocation. */
    public static void count() {
        Bootstrap.call(Bootstrap.INJECTIONS, "enterIgnoredSection", null);
        try {
            Object descriptor = Bootstrap.call(Bootstrap.THREAD_DESCRIPTOR, "getCurrentThreadDescriptor", null);
            Object strategy = descriptor == null ? null
                    : Bootstrap.call(Bootstrap.THREAD_DESCRIPTOR, "getEventTracker", descriptor);
            int bound = strategy == null ? -1 : switchBound(strategy);
            synchronized (PER_BOUND) {
                PER_BOUND.merge(bound, 1, Integer::sum);
            }
        } finally {
            Bootstrap.call(Bootstrap.INJECTIONS, "leaveIgnoredSection", null);
        }
    }

    /**
     * Runs {@code ghost} inside an ignored section: Lincheck's model checker puts no switch point in it and does not
     * undo its writes, so a scenario can keep ghost state (what its threads began and completed) without adding
     * interleavings.
     */
    public static <T> T ghost(java.util.function.Supplier<T> ghost) {
        Bootstrap.call(Bootstrap.INJECTIONS, "enterIgnoredSection", null);
        try {
            return ghost.get();
        } finally {
            Bootstrap.call(Bootstrap.INJECTIONS, "leaveIgnoredSection", null);
        }
    }

    /**
     * Lincheck's bootstrap classes ({@code sun.nio.ch.lincheck}), which its agent puts on the boot class path at run
     * time: not on the compile class path, so reached by reflection.
     */
    private static final class Bootstrap {
        static final String INJECTIONS = "sun.nio.ch.lincheck.Injections";
        static final String THREAD_DESCRIPTOR = "sun.nio.ch.lincheck.ThreadDescriptor";

        static Object call(String className, String method, Object target) {
            try {
                Class<?> type = Class.forName(className, false, null);
                return type.getMethod(method).invoke(target);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Lincheck 3.7's " + className + "." + method + " not reachable", e);
            }
        }
    }

    /** The model checker's current switch bound, or -1 for a strategy that has none (stress). */
    private static int switchBound(Object strategy) {
        try {
            Field field = strategy.getClass().getDeclaredField("maxNumberOfSwitches");
            field.setAccessible(true);
            return field.getInt(strategy);
        } catch (NoSuchFieldException e) {
            return -1;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Forgets the counts; call before a check that counts in its own way (the data-structure API). */
    public static void reset() {
        synchronized (PER_BOUND) {
            PER_BOUND.clear();
        }
    }

    /** The counts since the last {@link #reset()}, against {@code limit} invocations. */
    public static Exploration since(int limit) {
        synchronized (PER_BOUND) {
            int total = PER_BOUND.values().stream().mapToInt(Integer::intValue).sum();
            return new Exploration(total, new TreeMap<>(PER_BOUND), limit);
        }
    }

    /**
     * The property a scenario's own check found broken, from the failure Lincheck reports: Lincheck keeps the
     * exception the scenario threw (from an operation or a {@code @Validate} function) in its failure, behind a
     * Kotlin-internal getter (as the validation's or an operation's exception, or among the operations' results),
     * and writes only its text into the report.
     *
     * @param failure what a Lincheck check or {@code runConcurrentTest} threw
     * @return the scenario's violation
     * @throws AssertionError if the failure is not a scenario's {@link PropertyViolation} (for example a hang, or a
     *     result no sequential order explains)
     */
    public static PropertyViolation violationIn(Throwable failure) {
        if (failure instanceof PropertyViolation violation) {
            return violation;
        }
        LincheckFailure found = failure instanceof LincheckAssertionError lincheck ? lincheck.getFailure$lincheck() : null;
        List<Throwable> thrown = new ArrayList<>();
        if (found instanceof ValidationFailure validation) {
            thrown.add(validation.getException());
        } else if (found instanceof UnexpectedExceptionFailure unexpected) {
            thrown.add(unexpected.getException());
        }
        if (found != null) { // an incorrect result: the exceptions are among the operations' results
            ExecutionResult results = found.getResults();
            List<LincheckResult> all = new ArrayList<>(results.getInitResults());
            results.getParallelResultsWithClock().forEach(t -> t.forEach(r -> all.add(r.getResult())));
            all.addAll(results.getPostResults());
            all.stream().filter(ExceptionResult.class::isInstance)
                    .forEach(r -> thrown.add(((ExceptionResult) r).getThrowable()));
        }
        return thrown.stream().filter(PropertyViolation.class::isInstance).map(PropertyViolation.class::cast)
                .findFirst().orElseThrow(() -> new AssertionError("not a scenario's property violation (Lincheck's "
                        + "failure: " + (found == null ? "none" : found.getClass().getSimpleName()) + ", exceptions: "
                        + thrown + "): " + failure, failure));
    }

    /**
     * Runs a data-structure check ({@code Options.check}, whose test class calls {@link #count()} in its
     * constructor) and prints the invocations it ran under {@code name}, also when it fails.
     *
     * @throws AssertionError if the check passed with fewer than {@code minimum} invocations (a collapsed search)
     */
    public static void checkCounted(String name, int minimum, Runnable check) {
        reset();
        try {
            check.run();
        } finally {
            System.out.println("Lincheck " + name + ": " + since(Integer.MAX_VALUE).invocations() + " invocations");
        }
        int invocations = since(Integer.MAX_VALUE).invocations();
        if (invocations < minimum) {
            throw new AssertionError(name + ": the search collapsed to " + invocations
                    + " invocations, expected at least " + minimum);
        }
    }

    /**
     * Runs {@code scenario} under {@code runConcurrentTest} with {@code settings}, prints what ran under
     * {@code name} and returns it. A failure Lincheck reports is thrown after the invocations that led to it are
     * printed (no bound is claimed then: the search stopped at the failure).
     */
    public static Exploration run(String name, int invocations, LincheckSettings settings, Runnable scenario) {
        reset();
        try {
            Lincheck.runConcurrentTestInternal$lincheck(invocations, settings, scenario);
        } catch (RuntimeException | Error failure) {
            System.out.println("Lincheck " + name + ": failed after " + since(invocations).invocations()
                    + " invocations (replays included) with switch bounds " + since(invocations).perBound());
            throw failure;
        }
        Exploration run = since(invocations);
        System.out.println("Lincheck " + name + ": " + run);
        return run;
    }
}
