package org.arcref.specs.bounded;

import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.specs.lincheck.ExploredSchedules.Exploration;
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
 * every {@code ReentrantLock}, {@code Condition}, park and unpark call (each one step; the lock's internals are not
 * interleaved), thread start, join and end; a loop that runs {@link #SETTINGS}' 100 iterations without another thread
 * being able to make progress is a spin cycle: the checker switches there instead of running it further, and a
 * thread with no other thread to switch to is reported as hung.
 */
final class Exhaustive {
    /**
     * Lincheck's settings for every exhaustive run: the standard library analysed; 100 loop iterations before a
     * switch is forced (the aggsum constructor fills 64 home slots before the threads start); loop bound 200;
     * recursion bound 20.
     */
    static final LincheckSettings SETTINGS = new LincheckSettings(true, 100, 200, 20);

    private Exhaustive() {
    }

    /**
     * Runs {@code scenario} (which calls {@link ExploredSchedules#count()} first) with {@code budget} invocations and
     * requires that the tree was exhausted before the budget was.
     *
     * @return what ran
     * @throws AssertionError if the budget ran out first, or the scenario failed
     */
    static Exploration exhaust(String name, int budget, Runnable scenario) {
        Exploration run = ExploredSchedules.run(name, budget, SETTINGS, scenario);
        if (run.invocations() >= budget) {
            throw new AssertionError(name + ": the tree was not exhausted within " + budget + " invocations: " + run);
        }
        return run;
    }

    /** Joins {@code thread}, uninterruptibly as the scenarios need. */
    static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
