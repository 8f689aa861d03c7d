package org.arcref.exhaustive;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.Setting;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Zfs22Arc;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.check.Arc22Invariants;

/**
 * X1 for zfs-2.2.0's engine: every state of {@link Zfs22Arc} reachable from the empty ARC within a depth, found
 * breadth-first, each distinct state expanded once by every operation of an alphabet. Every transition is checked:
 * R22-1 … R22-13 ({@link Arc22Invariants}) on the snapshots before and after an accepted operation, B1 (a rejected
 * one leaves the snapshot unchanged); the first failure is thrown as a {@link PropertyViolation}. The transitions
 * ({@link Edge}: a state, one accepted operation, the state it leads to), and what each did ({@link Observer}), are
 * also what the oracle module compares with zfs-2.2.0's and zfs-2.2.11's arc.c: {@link #depthFirst()} orders them
 * as the spanning tree of the states' first paths, which the oracle runs with one fork per transition. Not
 * thread-safe; one run per instance.
 *
 * <h2>When two states are one</h2>
 * Two states are folded when {@link #encode} gives them equal encodings: everything a later operation of the engine
 * reads, which is its snapshot but
 * <ul>
 *   <li>the clock: a listed header's age is capped at {@code max(ARC_MINTIME + 1, both prefetch lifetimes)}, past
 *       which every comparison of arc.c (promotion after {@code ARC_MINTIME}, the prefetch lifetime) answers alike;
 *       {@code arc_growtime - now} is floored at 0; a ghost's or an anonymous header's access time is never read
 *       before an access stamps it;</li>
 *   <li>the counters no decision reads: the statistics, {@code arc_evict_count} (read only against waiters, of
 *       which there are none between operations) and {@code arc_need_free};</li>
 *   <li>the ghost-hit counters, of which {@code arc_evict} reads only the growth since its last pass: encoded as
 *       that growth, with the last pass's ghost targets ({@link Zfs22Arc#evictStatics()});</li>
 * </ul>
 * and with the free memory, with more than one sublist the sublist-start generator's state, and, when an operation of
 * the alphabet is uncached, the time since the evict zthr's last callback, which flushes the uncached headers
 * ({@code arc_last_uncached_flush}), capped at one past its period ({@code MSEC_TO_TICK(arc_min_prefetch_ms / 2)}),
 * past which its check answers alike, added. Without an uncached operation no header is ever uncached, and that time
 * is never read. Keys are not renamed.
 */
public final class Walk22 {

    /**
     * A transition of the walk.
     *
     * @param id its number, from 0, in the order the walk checked it
     * @param from the state it leaves (an index into {@link #firstPaths()})
     * @param op the operation, accepted by the engine in that state
     * @param to the state it leads to
     * @param discovers whether it found {@code to}: {@code to}'s first path is {@code from}'s followed by {@code op}
     */
    public record Edge(int id, int from, Operation op, int to, boolean discovers) {
    }

    /** What a run tells about each transition, as it checks it. */
    @FunctionalInterface
    public interface Observer {
        /**
         * @param edge the transition
         * @param outcome what the operation returned
         * @param evicted the headers it evicted or deleted, in order
         * @param after the snapshot after it
         */
        void transition(Edge edge, Outcome outcome, List<Eviction> evicted, Arc22Snapshot after);
    }

    private final ConformanceSettings settings;
    private final List<Operation> alphabet;
    private final int maxDepth;
    /** Whether an operation of the alphabet is uncached: else no header is ever uncached (class comment). */
    private final boolean uncachedOps;
    /** {@code MSEC_TO_TICK(arc_min_prefetch_ms / 2)}: the evict zthr's period for flushing uncached headers. */
    private final long flushPeriod;
    private final Map<List<Long>, Integer> known = new HashMap<>();
    private final List<List<Operation>> paths = new ArrayList<>();
    private final List<Integer> depths = new ArrayList<>();
    private final List<Edge> edges = new ArrayList<>();

    /**
     * @param settings the settings of zfs-2.2.0's engine the walk runs under
     * @param alphabet the operations tried in every state
     * @param maxDepth states at this depth are found but not expanded; at least 0
     */
    public Walk22(ConformanceSettings settings, List<Operation> alphabet, int maxDepth) {
        if (settings.engine() != ZfsEngine.V2_2_0) {
            throw new IllegalArgumentException("settings must be zfs-2.2.0's engine's, was zfs-" + settings.engine()
                    + "'s");
        }
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must be >= 0, was " + maxDepth);
        }
        this.settings = settings;
        this.alphabet = List.copyOf(alphabet);
        this.maxDepth = maxDepth;
        this.uncachedOps = this.alphabet.stream().anyMatch(op -> op instanceof Operation.Read r && r.uncached()
                || op instanceof Operation.Write w && w.uncached());
        this.flushPeriod = settings.config().msToTicks(settings.config().tunables().minPrefetchMs() / 2);
    }

    /**
     * Walks every state to the depth, checking every transition.
     *
     * @return this walk, run
     * @throws PropertyViolation at the first transition that breaks an invariant or B1
     */
    public Walk22 run() {
        return run((edge, outcome, evicted, after) -> { });
    }

    /**
     * Walks every state to the depth, checking every transition and telling the observer of it.
     *
     * @param observer told of each transition after it is checked, in the order of their ids
     * @return this walk, run
     * @throws PropertyViolation at the first transition that breaks an invariant or B1
     */
    public Walk22 run(Observer observer) {
        List<Eviction> evicted = new ArrayList<>();
        add(List.of(), 0, fresh(List.of(), evicted));
        for (int next = 0; next < paths.size(); next++) {
            if (depths.get(next) >= maxDepth) {
                continue;
            }
            List<Operation> path = paths.get(next);
            for (Operation op : alphabet) {
                Zfs22Arc arc = fresh(path, evicted);
                Arc22Snapshot before = arc.snapshot();
                evicted.clear();
                Outcome outcome;
                try {
                    outcome = op.applyTo(arc);
                } catch (IllegalArgumentException | IllegalStateException rejected) {
                    if (!arc.snapshot().equals(before)) {
                        throw new PropertyViolation(Property.B1, "rejected " + op.toTraceLine() + " after " + path
                                + " changed the state", arc.snapshot().toString());
                    }
                    continue;
                }
                Arc22Snapshot after = arc.snapshot();
                Arc22Invariants.check(settings.config(), settings.oldMaxBlockSize(), settings.metaBalance(), before,
                        op, after);
                List<Operation> extended = new ArrayList<>(path);
                extended.add(op);
                int found = paths.size();
                int to = add(extended, depths.get(next) + 1, arc);
                Edge edge = new Edge(edges.size(), next, op, to, to == found);
                edges.add(edge);
                observer.transition(edge, outcome, List.copyOf(evicted), after);
            }
        }
        return this;
    }

    /**
     * @return the settings of the walk the default build checks: zfs-2.2.0's engine with a cache of two 512-byte
     *     blocks ({@code arc_c_min = arc_c_max}), {@code SPA_OLD_MAXBLOCKSIZE} one block, one sublist, the evictor
     *     stepped, {@code arc_sys_free} 1 KiB
     */
    public static ConformanceSettings ciSettings() {
        return ConformanceSettings.defaults(ZfsEngine.V2_2_0).with(Map.of(Setting.ARC_C_MIN, 1024L,
                Setting.ARC_C_MAX, 1024L, Setting.SPA_MAXBLOCKSIZE, 512L, Setting.GROWTH_WINDOW, 1024L,
                Setting.SPA_OLD_MAXBLOCKSIZE, 512L, Setting.SUBLISTS, 1L, Setting.RANDOM_SEED, 2L,
                Setting.EVICTOR_RUNS_AFTER_EACH_OPERATION, 0L, Setting.ARC_SYS_FREE, 1024L));
    }

    /**
     * @return the alphabet of the walk the default build checks: two keys, each read as data or metadata in every
     *     kind (demand, demand with hold, prefetch, prescient), written as either, completed with and without hold,
     *     released, overwritten to the other key and freed; a shrink of one block, an evictor and a reaper step, ticks
     *     across {@code ARC_MINTIME} (63) and the prefetch lifetime (1000), free memory 0 and 1 TiB
     */
    public static List<Operation> ciAlphabet() {
        List<Operation> ops = new ArrayList<>();
        for (long key = 0; key < 2; key++) {
            for (BufType type : BufType.values()) {
                ops.add(new Operation.Read(key, 512, ReadKind.DEMAND, false, type));
                ops.add(new Operation.Read(key, 512, ReadKind.DEMAND, true, type));
                ops.add(new Operation.Read(key, 512, ReadKind.PREFETCH, false, type));
                ops.add(new Operation.Read(key, 512, ReadKind.PRESCIENT_PREFETCH, false, type));
                ops.add(new Operation.Write(key, 512, type));
            }
            ops.add(new Operation.Complete(key, false));
            ops.add(new Operation.Complete(key, true));
            ops.add(new Operation.Release(key));
            ops.add(new Operation.Overwrite(key, 1 - key));
            ops.add(new Operation.Free(key));
        }
        ops.add(new Operation.Shrink(512));
        ops.add(new Operation.Evict());
        ops.add(new Operation.Reap());
        ops.add(new Operation.Tick(63));
        ops.add(new Operation.Tick(1000));
        ops.add(new Operation.Memory(0));
        ops.add(new Operation.Memory(1L << 40));
        return ops;
    }

    /**
     * The alphabet that reaches zfs-2.2.0's uncached state, walked to a smaller depth than {@link #ciAlphabet()} as
     * it is larger: {@link #ciAlphabet()}, then for each key three data operations with {@code uncached}: a demand
     * read with hold (a miss to the uncached state; the header lives while held, so that another read is an uncached
     * hit, and its release destroys it), a prefetch read (an unheld prefetch stays in the uncached state until the
     * evict zthr flushes it, an eviction from {@code uncached}, once {@code tick 1000} has passed the prefetch
     * lifetime and the flush period), and a write (whose completion moves the header to the uncached state, a held
     * one to stay). A demand read without hold is left out (its header is destroyed within the operation, as is a
     * completed write's without hold), and so is metadata, to keep the tree small.
     *
     * @return {@link #ciAlphabet()}'s operations, then the six uncached ones, key 0's first
     */
    public static List<Operation> uncachedAlphabet() {
        List<Operation> ops = new ArrayList<>(ciAlphabet());
        for (long key = 0; key < 2; key++) {
            ops.add(new Operation.Read(key, 512, ReadKind.DEMAND, true, BufType.DATA, true));
            ops.add(new Operation.Read(key, 512, ReadKind.PREFETCH, false, BufType.DATA, true));
            ops.add(new Operation.Write(key, 512, BufType.DATA, true));
        }
        return ops;
    }

    /** @return the distinct states found */
    public int states() {
        return paths.size();
    }

    /** @return each state's first path, in breadth-first order */
    public List<List<Operation>> firstPaths() {
        return List.copyOf(paths);
    }

    /** @return every transition out of an expanded state, by id */
    public List<Edge> edges() {
        return List.copyOf(edges);
    }

    /**
     * @return every transition, each state's together in id order, a transition that {@link Edge#discovers} its
     *     target followed at once by the target's (depth first from the empty ARC): the spanning tree of the first
     *     paths, with every other transition beside it
     */
    public List<Edge> depthFirst() {
        List<List<Edge>> out = new ArrayList<>();
        for (int s = 0; s < paths.size(); s++) {
            out.add(new ArrayList<>());
        }
        for (Edge e : edges) {
            out.get(e.from()).add(e);
        }
        List<Edge> order = new ArrayList<>(edges.size());
        Deque<Edge> stack = new ArrayDeque<>();
        for (int i = out.get(0).size() - 1; i >= 0; i--) {
            stack.push(out.get(0).get(i));
        }
        while (!stack.isEmpty()) {
            Edge e = stack.pop();
            order.add(e);
            if (e.discovers()) {
                List<Edge> next = out.get(e.to());
                for (int i = next.size() - 1; i >= 0; i--) {
                    stack.push(next.get(i));
                }
            }
        }
        return order;
    }

    /**
     * @param state a state's index
     * @return its depth: the length of its first path
     */
    public int depth(int state) {
        return depths.get(state);
    }

    /** @return the state's index: its old one, or the next, which it is given as new */
    private int add(List<Operation> path, int depth, Zfs22Arc arc) {
        Integer old = known.putIfAbsent(encode(arc), paths.size());
        if (old != null) {
            return old;
        }
        paths.add(List.copyOf(path));
        depths.add(depth);
        return paths.size() - 1;
    }

    private Zfs22Arc fresh(List<Operation> path, List<Eviction> evicted) {
        Zfs22Arc arc = (Zfs22Arc) settings.newArc(evicted::add);
        for (Operation op : path) {
            op.applyTo(arc);
        }
        return arc;
    }

    /**
     * @param arc an ARC between operations
     * @return its encoding: equal for two states exactly when every continuation behaves alike (class comment)
     */
    List<Long> encode(Zfs22Arc arc) {
        Arc22Snapshot s = arc.snapshot();
        long now = s.tick();
        long cap = Math.max(settings.config().minTimeTicks() + 1,
                Math.max(settings.config().msToTicks(settings.config().tunables().minPrefetchMs()),
                        settings.config().msToTicks(settings.config().tunables().minPrescientPrefetchMs())));
        List<Long> e = new ArrayList<>(List.of(s.c(), s.meta(), s.pd(), s.pm(), s.size(), s.noGrow() ? 1L : 0L,
                s.warm() ? 1L : 0L, s.evictNeeded() ? 1L : 0L, Math.max(s.growTime() - now, 0), arc.freeMemory(),
                settings.config().sublists() > 1 ? arc.sublistStartState() : 0L, (long) s.waiterCounts().size()));
        e.addAll(arc.evictStatics());
        s.states().forEach(st -> {
            e.add(st.size());
            e.add(st.evictableSize());
        });
        for (HeaderSnapshot h : s.headers()) {
            e.addAll(List.of(h.key(), (long) h.type().ordinal(), (long) h.state().ordinal(), h.size(),
                    h.hasData() ? 1L : 0L, h.sharedData() ? 1L : 0L, (long) h.refcount(), h.prefetch() ? 1L : 0L,
                    h.prescientPrefetch() ? 1L : 0L, (long) h.sublist(), h.linked() ? 1L : 0L,
                    h.uncached() ? 1L : 0L, h.linearData() ? 1L : 0L,
                    h.state() == ArcState.MRU || h.state() == ArcState.MFU || h.state() == ArcState.UNCACHED
                            ? Math.min(now - h.lastAccess(), cap) : -1L));
        }
        if (uncachedOps) {
            e.add(Math.min(now - arc.lastUncachedFlush(), flushPeriod + 1));
        }
        return e;
    }
}
