package org.arcref.exhaustive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.conformance.Transition;
import org.arcref.differential.Lockstep;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.check.ArcInvariants;

/**
 * Property X1: explores every state of the spec ({@link ZfsArc}) reachable within {@link ExhaustiveBounds} from the
 * empty ARC, breadth-first, each distinct state ({@link StateEncoding}) expanded once by every operation of the
 * {@link Alphabet}, and checks every transition, the spec and the deterministic {@link ConcurrentArc}
 * ({@link Lockstep#deterministicOptions}) in lock step ({@link Lockstep}):
 * <ul>
 *   <li>R1–R13 ({@link ArcInvariants#check}) on the snapshots before and after;</li>
 *   <li>the quirk switches (X1): no {@link QuirkWitness} that is a quirk's effect is seen with the quirk's fix
 *       applied;</li>
 *   <li>D1: the concurrent ARC returns the same outcome and the same full snapshot, and every read its key's value
 *       (N1);</li>
 *   <li>B1: an operation the spec rejects leaves its state (snapshot and free memory) unchanged, and the
 *       concurrent ARC rejects it too, unchanged; the spec throws nothing else.</li>
 * </ul>
 * It stops at the first violation, which, found breadth-first, comes with a shortest path
 * ({@link Violation#ops()}). It records which conformance {@link Transition}s and quirk witnesses it reached and at
 * what depth. Not thread-safe; one run per instance.
 */
public final class ExhaustiveExplorer {

    /*
     * Implementation overview. States are numbered in the order they are found, which is breadth-first order, so
     * the queue is just the next number to expand; per state only its parent's number and the alphabet index of
     * the operation from it are kept (two ints), and its path is rebuilt by walking parents. A HashMap from
     * encoding to number deduplicates.
     *
     * Neither ARC can be copied, so states are reached by replaying their path on a fresh lock-step pair. Expanding
     * a state replays its path once; an operation both reject leaves the pair unchanged (which B1 checks), so the
     * same replay serves the next operation; an accepted one changes it, and the next operation gets a fresh
     * replay. So a state of depth d with a accepted operations costs about (a + 1)·d operations on each ARC. The
     * path needs no checks while replayed: each of its transitions was checked when its state was expanded.
     */

    /**
     * Progress, reported after each expanded state.
     *
     * @param states distinct states found
     * @param transitions accepted operations checked
     * @param depth the depth being expanded
     * @param frontier states found but not yet expanded
     */
    public record Progress(long states, long transitions, int depth, long frontier) {
    }

    private final ExhaustiveBounds bounds;
    private final Lockstep.ConcurrentArcs arcs;
    private final List<Operation> alphabet;
    private final StateEncoding encoding;
    private final ArcOptions options;
    private final Map<StateKey, Integer> known = new HashMap<>();
    private int[] parent = new int[1024];
    private int[] via = new int[1024];
    private int count;
    private final List<Long> statesPerDepth = new ArrayList<>();
    private final Map<Transition, Integer> transitionDepth = new EnumMap<>(Transition.class);
    private final Map<QuirkWitness, Integer> quirkDepth = new EnumMap<>(QuirkWitness.class);
    private long transitions;
    private long rejected;

    /**
     * @param bounds what to explore
     * @param arcs creates the concurrent ARC of D1 (production: {@code ConcurrentArc::new})
     */
    public ExhaustiveExplorer(ExhaustiveBounds bounds, Lockstep.ConcurrentArcs arcs) {
        this.bounds = bounds;
        this.arcs = arcs;
        this.alphabet = bounds.alphabet().operations();
        this.encoding = new StateEncoding(bounds.config());
        this.options = Lockstep.deterministicOptions(bounds.config().seed());
    }

    /**
     * Explores until every state within the bounds is expanded, the state bound is reached, {@code stop} says so
     * (polled after each state) or a check fails.
     *
     * @param stop polled between states; true stops the exploration
     * @param progress told after each expanded state
     * @return the result
     */
    public ExhaustiveResult run(BooleanSupplier stop, Consumer<Progress> progress) {
        long start = System.nanoTime();
        try (Pair root = replay(List.of())) {
            add(encoding.encode(root.both.spec(), root.both.snapshot(), root.both.specFreeMemory()).key(), -1, -1, 0);
        }
        ExhaustiveResult.Stop why = ExhaustiveResult.Stop.COMPLETE;
        Violation violation = null;
        int depth = 0;
        long depthEnd = 1;
        for (int id = 0; id < count; id++) {
            if (id == depthEnd) {
                depth++;
                depthEnd += statesPerDepth.get(depth);
            }
            if (depth >= bounds.maxDepth()) {
                why = ExhaustiveResult.Stop.DEPTH_BOUND;
                break;
            }
            if (stop.getAsBoolean()) {
                why = ExhaustiveResult.Stop.INTERRUPTED;
                break;
            }
            violation = expand(id, depth);
            if (violation != null) {
                why = ExhaustiveResult.Stop.VIOLATION;
                break;
            }
            if (count >= bounds.maxStates()) {
                why = ExhaustiveResult.Stop.STATE_BOUND;
                break;
            }
            progress.accept(new Progress(count, transitions, depth, count - id - 1L));
        }
        return new ExhaustiveResult(why, count, transitions, rejected, statesPerDepth,
                Duration.ofNanos(System.nanoTime() - start), transitionDepth, quirkDepth, violation);
    }

    /** Applies every operation to state {@code id} at {@code depth}; returns the first violation, or null. */
    private Violation expand(int id, int depth) {
        List<Operation> path = pathOf(id);
        Pair pair = replay(path);
        try {
            for (int a = 0; a < alphabet.size(); a++) {
                Operation op = alphabet.get(a);
                if (pair == null) {
                    pair = replay(path);
                }
                Pair current = pair;
                current.evicted.clear();
                try {
                    current.both.apply(op, (before, o, outcome, after) ->
                            checkSpec(o, outcome, before, after, current.evicted, depth + 1));
                } catch (IllegalArgumentException e) {
                    rejected++; // both rejected it, unchanged (B1): the pair serves the next operation
                    continue;
                } catch (PropertyViolation e) {
                    return new Violation(e.property(), e.getMessage(), append(path, op));
                } catch (RuntimeException e) {
                    return new Violation(Property.B1, "the spec threw on " + op.toTraceLine() + " (it rejects bad "
                            + "input with IllegalArgumentException only): " + e, append(path, op));
                }
                transitions++;
                StateKey key = encoding.encode(current.both.spec(), current.both.snapshot(),
                        current.both.specFreeMemory()).key();
                if (!known.containsKey(key) && count < bounds.maxStates()) {
                    add(key, id, a, depth + 1);
                }
                current.close();
                pair = null;
            }
            return null;
        } finally {
            if (pair != null) {
                pair.close();
            }
        }
    }

    /**
     * The checks of the spec's accepted transition, before D1 compares: R1–R13 and the quirk fixes (X1); records
     * coverage.
     *
     * @throws PropertyViolation naming the property that broke
     */
    private void checkSpec(Operation op, Outcome outcome, ArcSnapshot before, ArcSnapshot after,
            List<Eviction> evicted, int depth) {
        ArcInvariants.check(bounds.config(), before, op, outcome, after);
        for (QuirkWitness q : QuirkWitness.values()) {
            if (q.seen(bounds.config(), before, op, outcome, after)) {
                quirkDepth.putIfAbsent(q, depth);
                if (q.effect() && bounds.config().applies(q.fix())) {
                    throw new PropertyViolation(Property.X1, q.fix() + " is applied, yet " + q + " happened on "
                            + op.toTraceLine(), "before: " + before + "\nafter:  " + after);
                }
            }
        }
        for (Transition t : Transition.observed(op, outcome, evicted, before, after)) {
            transitionDepth.putIfAbsent(t, depth);
        }
    }

    private void add(StateKey key, int parentId, int op, int depth) {
        if (count == parent.length) {
            parent = Arrays.copyOf(parent, count * 2);
            via = Arrays.copyOf(via, count * 2);
        }
        known.put(key, count);
        parent[count] = parentId;
        via[count] = op;
        count++;
        if (statesPerDepth.size() == depth) {
            statesPerDepth.add(0L);
        }
        statesPerDepth.set(depth, statesPerDepth.get(depth) + 1);
    }

    /**
     * The first paths of the states found, without those that another found state's first path extends: replaying
     * them all from the empty ARC passes through every state found, each reached by its first path (the oracle's
     * X1 replay, {@code docs/oracle.md}). Call after {@link #run}.
     *
     * @return the paths, in the order their states were found
     */
    public List<List<Operation>> firstPathLeaves() {
        return firstPaths(true);
    }

    /**
     * The first path of every state found, in the order the states were found (breadth-first: the root's empty path
     * first). Call after {@link #run}.
     *
     * @return the paths
     */
    public List<List<Operation>> firstPaths() {
        return firstPaths(false);
    }

    private List<List<Operation>> firstPaths(boolean leavesOnly) {
        boolean[] extended = new boolean[count];
        for (int id = 1; id < count; id++) {
            extended[parent[id]] = true;
        }
        List<List<Operation>> paths = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            if (!leavesOnly || !extended[id]) {
                paths.add(pathOf(id));
            }
        }
        return paths;
    }

    private List<Operation> pathOf(int id) {
        List<Operation> path = new ArrayList<>();
        for (int s = id; parent[s] >= 0; s = parent[s]) {
            path.add(alphabet.get(via[s]));
        }
        Collections.reverse(path);
        return path;
    }

    private static List<Operation> append(List<Operation> path, Operation op) {
        List<Operation> ops = new ArrayList<>(path);
        ops.add(op);
        return ops;
    }

    /** @return a fresh lock-step pair brought to the end of {@code path} */
    private Pair replay(List<Operation> path) {
        Pair pair = new Pair();
        pair.both.replay(path);
        return pair;
    }

    /** A fresh spec and concurrent ARC in lock step, and the evictions the spec's probe reports. */
    private final class Pair implements AutoCloseable {
        final List<Eviction> evicted = new ArrayList<>();
        final Lockstep both = new Lockstep(bounds.config(), bounds.initialFreeMemory(), options, arcs, evicted::add);

        @Override
        public void close() {
            both.close();
        }
    }
}
