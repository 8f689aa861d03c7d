package org.arcref.explore;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsEngine;

/**
 * Runs checks on random operation sequences until a try fails, the tries or the time budget are used up, or it is
 * stopped; shrinks the first failure.
 *
 * <h2>Contract</h2>
 * Try {@code t} of seed {@code s} has the seed {@link #trySeed(long, long)}, which alone fixes its check (one of the
 * plan's, drawn from the try seed), settings and operations ({@link RandomScenario}: zfs-2.1.1's engine's, but the
 * oracle check's, which are the oracle's engine's); so the same seed, the same checks and the same oracle engine
 * reproduce every try exactly, and a shard {@code i/n} runs exactly the tries {@code t ≡ i (mod n)}, in
 * increasing order. With a tries budget {@code N} the whole try space is {@code 0 … N-1}; with only a time budget it
 * is unbounded.
 */
public final class Explorer {

    /** The most candidates the shrinker tests. */
    static final int MAX_SHRINK_EVALUATIONS = 20_000;

    /**
     * What to explore.
     *
     * @param seed the seed of the try space
     * @param shard the part of the try space to run
     * @param tries the size of the try space, or 0 for unbounded (then {@code nanos} must be positive)
     * @param nanos the time budget, or 0 for none
     * @param checks the checks to run, not empty
     */
    public record Plan(long seed, Shard shard, long tries, long nanos, List<CheckKind> checks) {
        /** @throws IllegalArgumentException if there is no budget or no check */
        public Plan {
            if (tries < 0 || nanos < 0 || tries == 0 && nanos == 0) {
                throw new IllegalArgumentException("--tries must be >= 1 or --duration given, was tries " + tries);
            }
            if (checks.isEmpty()) {
                throw new IllegalArgumentException("--checks must name at least one check, was empty");
            }
            checks = List.copyOf(checks);
        }
    }

    private final Checker checker;
    private final Plan plan;

    /**
     * @param checker runs the checks
     * @param plan what to explore
     */
    public Explorer(Checker checker, Plan plan) {
        this.checker = checker;
        this.plan = plan;
    }

    /**
     * @param seed the seed of the try space
     * @param tryIndex a try
     * @return the try's seed
     */
    public static long trySeed(long seed, long tryIndex) {
        return SplitMix64.mix(seed ^ SplitMix64.mix(tryIndex + 0x5DEECE66DL));
    }

    /**
     * @param check a check
     * @param engine the engine of the oracle check's tries ({@link Checker#oracleEngine()}); the other checks'
     *     tries are zfs-2.1.1's
     * @param trySeed a try seed
     * @return that try's settings and operations (valid on them by construction), for replaying its shrunk trace
     */
    public static RandomScenario.Generated tryOf(CheckKind check, ZfsEngine engine, long trySeed) {
        return RandomScenario.of(check, engine, trySeed);
    }

    /**
     * @param checks the plan's checks
     * @param trySeed a try seed
     * @return the check that try runs
     */
    public static CheckKind checkOf(List<CheckKind> checks, long trySeed) {
        return checks.get((int) Long.remainderUnsigned(SplitMix64.mix(~trySeed), checks.size()));
    }

    /**
     * @param stop polled between tries and between shrink candidates; true ends the run (Ctrl-C)
     * @param progress told the number of tries done after each try
     * @return what was done, with the shrunk first failure if any
     */
    public ExploreResult run(BooleanSupplier stop, LongConsumer progress) {
        long start = System.nanoTime();
        Map<CheckKind, Long> byCheck = new EnumMap<>(CheckKind.class);
        long done = 0;
        for (long t = plan.shard().index(); ; t += plan.shard().count()) {
            if (plan.tries() > 0 && t >= plan.tries()) {
                return new ExploreResult(done, byCheck, System.nanoTime() - start, false, null);
            }
            if (plan.nanos() > 0 && System.nanoTime() - start >= plan.nanos()) {
                return new ExploreResult(done, byCheck, System.nanoTime() - start, false, null);
            }
            if (stop.getAsBoolean()) {
                return new ExploreResult(done, byCheck, System.nanoTime() - start, true, null);
            }
            long trySeed = trySeed(plan.seed(), t);
            CheckKind kind = checkOf(plan.checks(), trySeed);
            RandomScenario.Generated scenario = tryOf(kind, checker.oracleEngine(), trySeed);
            ConformanceSettings settings = scenario.settings();
            List<Operation> ops = scenario.operations();
            Verdict verdict = checker.check(kind, settings, ops);
            done++;
            byCheck.merge(kind, 1L, Long::sum);
            progress.accept(done);
            if (verdict.failed()) {
                Shrinker shrinker = new Shrinker(MAX_SHRINK_EVALUATIONS);
                List<Operation> shrunk = shrinker.shrink(ops, candidate -> {
                    Verdict v = checker.check(kind, settings, candidate);
                    return v.failed() && v.rule().equals(verdict.rule());
                }, SimplerOperations::of, stop);
                Failure failure = new Failure(kind, t, trySeed, settings, verdict, ops,
                        checker.check(kind, settings, shrunk), shrunk, shrinker.evaluations());
                return new ExploreResult(done, byCheck, System.nanoTime() - start, stop.getAsBoolean(), failure);
            }
        }
    }
}
