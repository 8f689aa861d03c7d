package org.arcref.conformance;

import java.util.Arrays;
import java.util.List;
import org.arcref.zfs.ZfsEngine;

/**
 * The revisions of each engine's behaviour: what a port of the spec has had to change since the first conformance
 * output, one revision per change of what an operation does to the state for the same trace and settings. The
 * conformance header's {@code revision} is the engine's {@link #current} one, and {@code docs/porting.md}'s
 * changelog repeats this list with the trace that shows each change.
 *
 * <p>A revision is not the format's {@code version}: the version changes with the fields of a line, the revision
 * with the values an unchanged trace gives them. Revisions are numbered per engine from 1 (that engine's first
 * output); those before the header carried a revision are numbered after the fact from the project's history.
 */
public enum BehaviourRevision {

    /** zfs-2.1.1's engine as its first conformance output had it. */
    ZFS_2_1_1_FIRST(ZfsEngine.V2_1_1, 1, "the first conformance output", "basic"),
    /** Scatter ABDs and {@code arc_release}. */
    ZFS_2_1_1_SCATTER(ZfsEngine.V2_1_1, 2, "a buffer shares its header's data only when the data is linear "
            + "(zfs_abd_scatter_enabled, zfs_abd_scatter_min_size), so a second buffer or a scatter block costs a "
            + "private copy (overhead_size); the overwrite operation (arc_release, then arc_write's start)", "scatter"),
    /** zfs-2.1.1's sublists and random start sublist. */
    ZFS_2_1_1_SUBLISTS(ZfsEngine.V2_1_1, 3, "a header's sublist is the low 32 bits of buf_hash (cityhash4 over the "
            + "key's block identity) modulo the count; each scan starts at random_in_range's sublist (a 32-bit draw, "
            + "none for one sublist), and arc_evict draws twice before MRU and twice before MFU eviction", "sublists"),
    /** zfs-2.1.1's hash-lock stripes. */
    ZFS_2_1_1_HASH_LOCKS(ZfsEngine.V2_1_1, 4, "an allocation that waits for eviction holds its hashed header's "
            + "hash lock (buf_hash & 2047), and eviction skips every header of that lock (mutex_miss)",
            "hash-lock-zero"),
    /** The quirk switches named for their upstream changes. */
    ZFS_2_1_1_FIXES(ZfsEngine.V2_1_1, 5, "with quirk fixes only: WRITE_SHARES_LINEAR_12425 added, and arc_adapt's "
            + "64-bit multiply split into ADAPT_MRU_64BIT_MULTIPLY_14094 (upstream) and "
            + "ADAPT_MFU_64BIT_MULTIPLY_OURS", "quirk-adapt-mru-multiply"),
    /** zfs-2.2.0's engine as its first conformance output had it. */
    ZFS_2_2_0_FIRST(ZfsEngine.V2_2_0, 1, "the first conformance output", "metadata-basic"),
    /** zfs-2.2.0's uncached state. */
    ZFS_2_2_0_UNCACHED(ZfsEngine.V2_2_0, 2, "uncached reads and writes: the uncached state, HIT_UNCACHED, the evict "
            + "zthr's timed flush, and remove_reference destroying an uncached header that is not a prefetch",
            "uncached");

    private final ZfsEngine engine;
    private final int number;
    private final String change;
    private final String trace;

    BehaviourRevision(ZfsEngine engine, int number, String change, String trace) {
        this.engine = engine;
        this.number = number;
        this.change = change;
        this.trace = trace;
    }

    /** @return the engine whose behaviour this revision is */
    public ZfsEngine engine() {
        return engine;
    }

    /** @return its number, from 1 per engine */
    public int number() {
        return number;
    }

    /** @return what a port of the previous revision must change */
    public String change() {
        return change;
    }

    /** @return the built-in trace that shows the change */
    public String trace() {
        return trace;
    }

    /**
     * @param engine an engine
     * @return the number of its newest revision: the one this code implements and writes
     */
    public static int current(ZfsEngine engine) {
        return of(engine).get(of(engine).size() - 1).number;
    }

    /**
     * @param engine an engine
     * @return its revisions, oldest first
     */
    public static List<BehaviourRevision> of(ZfsEngine engine) {
        return Arrays.stream(values()).filter(r -> r.engine == engine).toList();
    }

    /**
     * @param engine an engine
     * @param from a revision number
     * @param to a revision number
     * @return the engine's revisions after the older of the two, up to and including the newer, oldest first: what
     *     moves a port from one to the other
     */
    public static List<BehaviourRevision> between(ZfsEngine engine, int from, int to) {
        int low = Math.min(from, to);
        int high = Math.max(from, to);
        return of(engine).stream().filter(r -> r.number > low && r.number <= high).toList();
    }
}
