package org.arcref.exhaustive;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.StateSnapshot;
import org.arcref.zfs.ZfsArc;

/**
 * The canonical encoding of a spec state: two states get equal encodings only if every continuation of operations
 * (with keys renamed through {@link CanonicalState#renaming()}) has the same outcomes and the same effects on them,
 * so the explorer may expand each encoding once. Completeness is tested ({@code ExhaustiveX1Test}): runs reaching
 * one encoding by different paths behave identically on random continuations.
 *
 * <h2>What is encoded</h2>
 * Everything of {@link ZfsArc#snapshot()} and {@link ZfsArc#sublistStartState()} that a later operation reads, and
 * the free memory of the memory model:
 * <ul>
 *   <li>{@code arc_c}, {@code arc_p}, {@code arc_size}, {@code arc_no_grow}, {@code arc_warm},
 *       {@code arc_evict_needed}; the free memory;</li>
 *   <li>every state's {@code arcs_size} and {@code arcs_esize};</li>
 *   <li>every header: state, size, data, shared data, holds, prefetch flags, sublist, whether listed, and its place: each
 *       listed state's sublists in list order (newest first), which is what eviction scans; eviction markers are
 *       inserted and removed within one scan, so between operations no list holds one;</li>
 *   <li>the eviction waiters' counts (relative, below); between operations the spec never has any, as R8/L1
 *       checks, but they are encoded so that a broken spec that left one would not be folded;</li>
 *   <li>the state of the sublist-start generator, when there is more than one sublist.</li>
 * </ul>
 *
 * <h2>What is folded, and why that is sound</h2>
 * <ul>
 *   <li><b>The clock.</b> The spec reads the clock only relative to a header's last access ({@code ARC_MINTIME}:
 *       promoted when {@code age > ARC_MINTIME}; prefetch lifetimes: protected while {@code age < lifetime}) and to
 *       {@code arc_growtime} ({@code now >= arc_growtime}). So a header's age is encoded capped at
 *       {@code max(ARC_MINTIME + 1, both lifetimes in ticks)}, which every comparison treats alike, and
 *       {@code arc_growtime - now} is encoded floored at 0; ages only grow until an access restamps them. Ghost and
 *       anonymous headers' last access is never read before an access restamps it (a ghost hit, a write's
 *       completion), so it is not encoded. (The absolute clock would matter only where {@code tick} rejects an
 *       advance that overflows it, 2^63 ticks away.)</li>
 *   <li><b>Counters.</b> {@code arc_evict_count} is read only against waiter counts, which are encoded relative
 *       to it; {@code arc_need_free} and the statistics are written, never read by the policy.</li>
 *   <li><b>The generator with one sublist.</b> {@code nextIndex(1)} is 0 whatever the state.</li>
 *   <li><b>Key names.</b> The spec uses a key only as an identity (hash-table lookups) and through its sublist
 *       ({@code ArcArithmetic.sublistOf}); and {@link Alphabet} offers every operation for every key. So a
 *       bijection of keys that keeps each key's sublist maps runs onto runs. Keys are renamed to their order of
 *       appearance within their sublist: listed headers in list order, and the unordered groups (anonymous
 *       headers, held headers of each state, which the snapshot sorts by key) sorted by everything but the
 *       key, so that headers equal but for the key are interchangeable.</li>
 * </ul>
 *
 * <p>Not thread-safe; one per explorer.
 */
public final class StateEncoding {

    private static final Comparator<long[]> BY_DESCRIPTION = Comparator.<long[]>comparingLong(d -> d[0])
            .thenComparingLong(d -> d[1]).thenComparingLong(d -> d[2]);

    private final int sublists;
    private final long ageCap;

    /** @param config the configuration of the ARCs whose states are encoded */
    public StateEncoding(ArcConfig config) {
        this.sublists = config.sublists();
        long lifetime = Math.max(config.msToTicks(config.tunables().minPrefetchMs()),
                config.msToTicks(config.tunables().minPrescientPrefetchMs()));
        this.ageCap = Math.max(config.minTimeTicks() + 1, lifetime);
    }

    /**
     * @param arc the spec
     * @param snapshot its snapshot now
     * @param freeMemory its memory model's free memory now
     * @return the canonical encoding and the key renaming
     */
    public CanonicalState encode(ZfsArc arc, ArcSnapshot snapshot, long freeMemory) {
        List<Long> words = new ArrayList<>(64);
        words.add(snapshot.c());
        words.add(snapshot.p());
        words.add(snapshot.size());
        words.add((snapshot.noGrow() ? 1L : 0) | (snapshot.warm() ? 2L : 0) | (snapshot.evictNeeded() ? 4L : 0));
        words.add(Math.max(snapshot.growTime() - snapshot.tick(), 0));
        words.add(freeMemory);
        words.add(sublists > 1 ? arc.sublistStartState() : 0);
        words.add((long) snapshot.waiterCounts().size());
        snapshot.waiterCounts().forEach(w -> words.add(w - snapshot.evictCount()));
        for (StateSnapshot s : snapshot.states()) {
            words.add(s.size());
            words.add(s.evictableSize());
        }
        Map<Long, Integer> renaming = new HashMap<>();
        int[] nextIndex = new int[sublists];
        words.add((long) snapshot.headers().size());
        for (List<HeaderSnapshot> group : canonicalGroups(snapshot)) {
            List<long[]> described = new ArrayList<>(group.size());
            for (HeaderSnapshot h : group) {
                described.add(describe(h, snapshot.tick()));
            }
            boolean listed = !group.isEmpty() && group.get(0).linked();
            if (!listed) {
                described.sort(BY_DESCRIPTION);
            }
            for (long[] d : described) {
                int index = nextIndex[(int) d[4]]++;
                renaming.put(d[3], index);
                words.add(d[0] | (long) index << 40);
                words.add(d[1]);
                words.add(d[2]);
            }
        }
        long[] packed = new long[words.size()];
        for (int i = 0; i < packed.length; i++) {
            packed[i] = words.get(i);
        }
        return new CanonicalState(new StateKey(packed), renaming);
    }

    /**
     * The snapshot's headers in groups: anonymous headers (unordered), then per listed state its listed headers
     * in list order (one ordered group) and its held headers (unordered).
     */
    private static List<List<HeaderSnapshot>> canonicalGroups(ArcSnapshot snapshot) {
        List<HeaderSnapshot> anon = new ArrayList<>();
        Map<ArcState, List<HeaderSnapshot>> listed = new EnumMap<>(ArcState.class);
        Map<ArcState, List<HeaderSnapshot>> held = new EnumMap<>(ArcState.class);
        for (HeaderSnapshot h : snapshot.headers()) {
            if (h.state() == ArcState.ANON) {
                anon.add(h);
            } else {
                (h.linked() ? listed : held).computeIfAbsent(h.state(), s -> new ArrayList<>()).add(h);
            }
        }
        List<List<HeaderSnapshot>> groups = new ArrayList<>();
        groups.add(anon);
        for (ArcState s : ArcState.values()) {
            groups.add(listed.getOrDefault(s, List.of()));
            groups.add(held.getOrDefault(s, List.of()));
        }
        return groups;
    }

    /**
     * @return {packed flags, size, capped age, key, sublist} of a header; the first three are its description. The
     *     flags word holds the state (bits 0-2), data, prefetch, prescient and listed (3-6), the sublist (7-16),
     *     shared data (17) and the holds (20-39: a depth bound of at most 1000 keeps them far below 2^20); {@link #encode} adds the
     *     canonical index from bit 40
     */
    private long[] describe(HeaderSnapshot h, long now) {
        long flags = h.state().ordinal() | (h.hasData() ? 8L : 0) | (h.prefetch() ? 16L : 0)
                | (h.prescientPrefetch() ? 32L : 0) | (h.linked() ? 64L : 0) | (long) h.sublist() << 7
                | (h.sharedData() ? 1L << 17 : 0) | (long) h.refcount() << 20;
        boolean cached = h.state() == ArcState.MRU || h.state() == ArcState.MFU;
        long age = cached ? Math.min(now - h.lastAccess(), ageCap) : 0;
        return new long[] {flags, h.size(), age, h.key(), h.sublist()};
    }
}
