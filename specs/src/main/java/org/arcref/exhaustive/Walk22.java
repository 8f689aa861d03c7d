package org.arcref.exhaustive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Zfs22Arc;
import org.arcref.zfs.ZfsEngine;

/**
 * X1 for zfs-2.2.0's engine: every state of {@link Zfs22Arc} reachable from the empty ARC within a depth, found
 * breadth-first, each distinct state expanded once by every operation of an alphabet; its transitions (a state's
 * first path and one accepted operation) are what the oracle module replays through zfs-2.2.0's and zfs-2.2.11's
 * arc.c. Not thread-safe; one run per instance.
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
 * and with the free memory and, with more than one sublist, the sublist-start generator's state added. Keys are not
 * renamed.
 */
public final class Walk22 {

    private final ConformanceSettings settings;
    private final List<Operation> alphabet;
    private final int maxDepth;
    private final Map<List<Long>, Integer> known = new HashMap<>();
    private final List<List<Operation>> paths = new ArrayList<>();
    private final List<Integer> depths = new ArrayList<>();
    private final List<List<Operation>> transitions = new ArrayList<>();

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
    }

    /**
     * Walks every state to the depth.
     *
     * @return this walk, run
     */
    public Walk22 run() {
        add(List.of(), 0, fresh(List.of()));
        for (int next = 0; next < paths.size(); next++) {
            if (depths.get(next) >= maxDepth) {
                continue;
            }
            List<Operation> path = paths.get(next);
            for (Operation op : alphabet) {
                Zfs22Arc arc = fresh(path);
                try {
                    op.applyTo(arc);
                } catch (IllegalArgumentException | IllegalStateException rejected) {
                    continue;
                }
                List<Operation> extended = new ArrayList<>(path);
                extended.add(op);
                transitions.add(List.copyOf(extended));
                add(extended, depths.get(next) + 1, arc);
            }
        }
        return this;
    }

    /** @return the distinct states found */
    public int states() {
        return paths.size();
    }

    /** @return each state's first path, in breadth-first order */
    public List<List<Operation>> firstPaths() {
        return List.copyOf(paths);
    }

    /** @return every transition out of an expanded state: its first path and the accepted operation */
    public List<List<Operation>> transitions() {
        return List.copyOf(transitions);
    }

    private void add(List<Operation> path, int depth, Zfs22Arc arc) {
        if (known.putIfAbsent(encode(arc), paths.size()) == null) {
            paths.add(List.copyOf(path));
            depths.add(depth);
        }
    }

    private Zfs22Arc fresh(List<Operation> path) {
        Zfs22Arc arc = (Zfs22Arc) settings.newArc(eviction -> { });
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
                    h.state() == ArcState.MRU || h.state() == ArcState.MFU ? Math.min(now - h.lastAccess(), cap)
                            : -1L));
        }
        return e;
    }
}
