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
import org.arcref.differential.ConcurrentArcDriver;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.check.ArcInvariants;

/**
 * Property X1: explores every state of the spec ({@link ZfsArc}) reachable within {@link ExhaustiveBounds} from the
 * empty ARC, breadth-first, each distinct state ({@link StateEncoding}) expanded once by every operation of the
 * {@link Alphabet}, and checks every transition:
 * <ul>
 *   <li>R1–R13 ({@link ArcInvariants#check}) on the snapshots before and after;</li>
 *   <li>B1: an operation the spec rejects leaves its state (snapshot and free memory) unchanged, and the
 *       concurrent ARC rejects it too, unchanged;</li>
 *   <li>the quirk switches: no {@link QuirkWitness} that is a quirk's effect is seen with the quirk's fix
 *       applied;</li>
 *   <li>D1: the deterministic {@link ConcurrentArc} ({@link ConcurrentArcDriver#deterministicOptions}) brought to
 *       the same state returns the same outcome and the same full snapshot
 *       ({@link ConcurrentArcDriver#follow}), and every read its key's value (N1).</li>
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
     * Neither ARC can be copied, so states are reached by replaying their path on a fresh ARC. Expanding a state
     * replays its path on the spec once; an operation the spec rejects leaves it unchanged (which B1 checks), so
     * the same replay serves the next operation; an accepted one changes it, and the next operation gets a fresh
     * replay. D1 needs the concurrent ARC in the same state: one replay of the path serves the rejected operations
     * of the state (both must reject, unchanged), and each accepted operation gets its own. So a state of depth d
     * with a accepted operations costs about (a + 1)·d operations on each ARC. The concurrent ARC's path needs
     * no checks while replayed:
     * each of its transitions was checked when its state was expanded.
     */

    /** Creates the concurrent ARC that D1 compares with the spec; the factories of broken variants fit. */
    @FunctionalInterface
    public interface ConcurrentArcs {
        /**
         * @param config the spec's configuration
         * @param memory the memory model, adjustable
         * @param options deterministic options
         * @return a new concurrent ARC
         */
        ConcurrentArc<Long> create(ArcConfig config, MemoryModel memory, ArcOptions options);
    }

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
    private final ConcurrentArcs arcs;
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
    public ExhaustiveExplorer(ExhaustiveBounds bounds, ConcurrentArcs arcs) {
        this.bounds = bounds;
        this.arcs = arcs;
        this.alphabet = bounds.alphabet().operations();
        this.encoding = new StateEncoding(bounds.config());
        this.options = ConcurrentArcDriver.deterministicOptions(bounds.config().seed());
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
        Spec root = new Spec();
        add(encoding.encode(root.arc, root.arc.snapshot(), root.memory.freeMemory()).key(), -1, -1, 0);
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
        Spec spec = replay(path);
        ArcSnapshot before = spec.arc.snapshot();
        long freeBefore = spec.memory.freeMemory();
        ConcurrentArc<Long> unchanged = null;
        try {
            for (int a = 0; a < alphabet.size(); a++) {
                Operation op = alphabet.get(a);
                if (spec == null) {
                    spec = replay(path);
                }
                spec.evicted.clear();
                Outcome outcome;
                try {
                    outcome = op.applyTo(spec.arc);
                } catch (IllegalArgumentException e) {
                    rejected++;
                    if (unchanged == null) {
                        unchanged = replayConcurrent(path);
                    }
                    String broken = rejectionBroken(spec, before, freeBefore, op, e, unchanged);
                    if (broken != null) {
                        return new Violation("B1", broken, append(path, op));
                    }
                    continue;
                } catch (PropertyViolation e) {
                    // the spec rejects bad input with IllegalArgumentException only; a PropertyViolation is a waiter
                    // nobody would release (L1)
                    return new Violation(e.property().name(), "the spec threw on " + op.toTraceLine() + ": " + e,
                            append(path, op));
                } catch (RuntimeException e) {
                    return new Violation("exception", "the spec threw on " + op.toTraceLine() + ": " + e,
                            append(path, op));
                }
                ArcSnapshot after = spec.arc.snapshot();
                transitions++;
                Violation v = check(path, op, outcome, before, after, spec.evicted, depth + 1);
                if (v != null) {
                    return v;
                }
                StateKey key = encoding.encode(spec.arc, after, spec.memory.freeMemory()).key();
                if (!known.containsKey(key) && count < bounds.maxStates()) {
                    add(key, id, a, depth + 1);
                }
                spec = null;
            }
            return null;
        } finally {
            if (unchanged != null) {
                unchanged.close();
            }
        }
    }

    /** The checks of one accepted transition: R1–R13, the quirk fixes, D1; records coverage. */
    private Violation check(List<Operation> path, Operation op, Outcome outcome, ArcSnapshot before,
            ArcSnapshot after, List<Eviction> evicted, int depth) {
        try {
            ArcInvariants.check(bounds.config(), before, op, outcome, after);
        } catch (AssertionError e) {
            return new Violation(invariantOf(e.getMessage()), e.getMessage(), append(path, op));
        }
        for (QuirkWitness q : QuirkWitness.values()) {
            if (q.seen(bounds.config(), before, op, outcome, after)) {
                quirkDepth.putIfAbsent(q, depth);
                if (q.effect() && bounds.config().applies(q.fix())) {
                    return new Violation("quirk", q.fix() + " is applied, yet " + q + " happened on "
                            + op.toTraceLine() + "\nbefore: " + before + "\nafter:  " + after, append(path, op));
                }
            }
        }
        for (Transition t : Transition.observed(op, outcome, evicted, before, after)) {
            transitionDepth.putIfAbsent(t, depth);
        }
        try (ConcurrentArc<Long> arc = replayConcurrent(path)) {
            ConcurrentArcDriver.follow(op, outcome, after, arc);
        } catch (AssertionError | RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            String check = message.startsWith("N1") ? "N1" : "D1";
            return new Violation(check, message.startsWith(check) ? message
                    : "D1: the concurrent ARC threw on " + op.toTraceLine() + ": " + e, append(path, op));
        }
        return null;
    }

    /**
     * B1 for an operation the spec rejected: the spec's state is unchanged, and the concurrent ARC rejects it too
     * and stays unchanged.
     *
     * @return what broke, or null
     */
    private static String rejectionBroken(Spec spec, ArcSnapshot before, long freeBefore, Operation op,
            IllegalArgumentException rejection, ConcurrentArc<Long> concurrent) {
        ArcSnapshot after = spec.arc.snapshot();
        if (!after.equals(before) || spec.memory.freeMemory() != freeBefore) {
            return "B1: the spec rejected " + op.toTraceLine() + " (" + rejection.getMessage()
                    + ") but changed its state\nbefore: " + before + "\nafter:  " + after;
        }
        try {
            Outcome outcome = ConcurrentArcDriver.apply(op, concurrent);
            return "B1/D1: the spec rejected " + op.toTraceLine() + " (" + rejection.getMessage()
                    + ") but the concurrent ARC accepted it: " + outcome;
        } catch (IllegalArgumentException e) {
            ArcSnapshot concurrentAfter = concurrent.snapshot();
            return concurrentAfter.equals(before) ? null : "B1: the concurrent ARC rejected " + op.toTraceLine()
                    + " (" + e.getMessage() + ") but changed its state\nspec:       " + before + "\nconcurrent: "
                    + concurrentAfter;
        } catch (RuntimeException e) {
            return "B1/D1: the spec rejected " + op.toTraceLine() + " (" + rejection.getMessage()
                    + ") but the concurrent ARC threw " + e;
        }
    }

    /** @return the invariant an {@link ArcInvariants} message names ({@code invariant violated: R5: ...}) */
    private static String invariantOf(String message) {
        String prefix = "invariant violated: ";
        int end = message.indexOf(':', prefix.length());
        return message.startsWith(prefix) && end > 0 ? message.substring(prefix.length(), end) : "R1-R13";
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

    private Spec replay(List<Operation> path) {
        Spec spec = new Spec();
        path.forEach(op -> op.applyTo(spec.arc));
        return spec;
    }

    private ConcurrentArc<Long> replayConcurrent(List<Operation> path) {
        ConcurrentArc<Long> arc = arcs.create(bounds.config(), new AdjustableMemory(bounds.initialFreeMemory()),
                options);
        path.forEach(op -> ConcurrentArcDriver.apply(op, arc));
        return arc;
    }

    /** A fresh spec with its adjustable memory and the evictions its probe reports. */
    private final class Spec {
        final AdjustableMemory memory = new AdjustableMemory(bounds.initialFreeMemory());
        final List<Eviction> evicted = new ArrayList<>();
        final ZfsArc arc = new ZfsArc(bounds.config(), memory, evicted::add);
    }
}
