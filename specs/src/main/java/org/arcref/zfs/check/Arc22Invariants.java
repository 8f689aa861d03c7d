package org.arcref.zfs.check;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.StateSnapshot;

/**
 * The invariants of zfs-2.2.0's engine (R22-1 … R22-13, {@link Property#R22_1} …) as checks on two consecutive
 * snapshots of {@code Zfs22Arc} and the operation between them. Each failure is a {@link PropertyViolation} naming
 * the invariant, how it broke, and the snapshot.
 *
 * <p>As {@link ArcInvariants} does for zfs-2.1.1's engine, the checks compute what they expect from zfs-2.2.0's
 * arc.c on their own, from the snapshot, its headers and the configuration, and call none of the engine's helpers
 * ({@code Arc22Arithmetic}, {@code ArcArithmetic}, {@code HeaderSnapshot#accountedSize}): the fractions' range, the
 * four live classes and the ghost lists' bounds are derived here again. What both engines keep alike (the
 * accounting over headers, lists and data, the eviction count and waiters) is checked by {@link EngineChecks} under
 * each engine's names.
 *
 * <p><b>The fractions' range is a quirk of zfs-2.2.0, not a violation.</b> zfs-2.2.0's {@code arc_evict_adj} can
 * move {@code arc_meta}, {@code arc_pd} or {@code arc_pm} out of {@code [0, 2^32]} (the built-in trace
 * {@code quirk-evict-adj-overflow} drives {@code arc_meta} past 2^32); zfs-2.2.8 fixed it
 * ({@link QuirkFix#EVICT_ADJ_OVERFLOW_17255}). So R22-2 holds only with that fix, and
 * {@link #fractionsOutOfRange} names a witness of the quirk without it. Even with the fix, {@code arc_meta} stays in
 * range only for {@code zfs_arc_meta_balance >= 100}: zfs-2.2.11's {@code arc_evict_adj} multiplies {@code down} by
 * {@code 100 / balance} after the scaling that bounds it, then asserts {@code down <= frac} (a panic in a debug
 * build; a production build returns the wrapped {@code frac + up - down}). R22-2 therefore asks the range of
 * {@code arc_meta} only for a balance of 100 or more, and of {@code arc_pd} and {@code arc_pm} (balance 100) always.
 */
public final class Arc22Invariants {

    /** 1.0 in the fractions' 32-bit fixed point (arc.c's {@code 1ULL << 32}). */
    static final long FRACTION_ONE = 1L << 32;

    private Arc22Invariants() {
    }

    /**
     * Checks every invariant that applies to one operation.
     *
     * @param config the engine's configuration
     * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE}, the engine's smallest growth step
     * @param metaBalance {@code zfs_arc_meta_balance}
     * @param before the snapshot before {@code op}, or null for the first operation
     * @param op the operation
     * @param after the snapshot after it
     * @throws PropertyViolation naming the first invariant that fails
     */
    public static void check(ArcConfig config, long oldMaxBlockSize, int metaBalance, Arc22Snapshot before,
            Operation op, Arc22Snapshot after) {
        r1TargetWithinLimits(config, after);
        r2FractionsInRange(config, metaBalance, after);
        r3r4Accounting(after);
        EngineChecks.listsAndData(config, after.headers(), Property.R22_5, Property.R22_6, after);
        EngineChecks.evictCountAndWaiters(before == null ? null : before.evictCount(), after.evictCount(),
                after.waiterCounts(), Property.R22_8, Property.R22_8, after);
        if (before != null) {
            r9TargetChanges(config, oldMaxBlockSize, before, op, after);
            r12GhostHitsAndFractions(before, op, after);
            r13TypeKept(before, op, after);
        }
        boolean evictorRan = before != null
                && after.stat(ArcStat.EVICTOR_RUNS) > before.stat(ArcStat.EVICTOR_RUNS);
        boolean allocates = op instanceof Operation.Read || op instanceof Operation.Write
                || op instanceof Operation.Complete;
        if (config.evictorRunsAfterEachOperation()) {
            require(!after.evictNeeded(), Property.R22_10, "a free-running evictor goes back to sleep "
                    + "(arc_evict_needed FALSE)", after);
            if (evictorRan && !allocates) {
                r7EvictionReachedTarget(config, after);
            }
        }
        if (evictorRan && !allocates) {
            r11GhostListsTrimmed(after);
        }
    }

    /**
     * The fractions outside {@code [0, 2^32]}: zfs-2.2.0's quirk that {@link QuirkFix#EVICT_ADJ_OVERFLOW_17255}
     * removes. A violation of R22-2 with the fix; without it, a witness that the quirk happened.
     *
     * @param s a snapshot
     * @return the names of the fractions out of range with their values (u64), empty if all are in range
     */
    public static List<String> fractionsOutOfRange(Arc22Snapshot s) {
        List<String> out = new ArrayList<>();
        addIfOutOfRange(out, "arc_meta", s.meta());
        addIfOutOfRange(out, "arc_pd", s.pd());
        addIfOutOfRange(out, "arc_pm", s.pm());
        return out;
    }

    private static void addIfOutOfRange(List<String> out, String name, long fraction) {
        if (Long.compareUnsigned(fraction, FRACTION_ONE) > 0) {
            out.add(name + "=" + Long.toUnsignedString(fraction));
        }
    }

    /** R22-1: {@code arc_c_min <= arc_c <= arc_c_max}. */
    static void r1TargetWithinLimits(ArcConfig config, Arc22Snapshot s) {
        require(Long.compareUnsigned(config.cMin(), s.c()) <= 0
                && Long.compareUnsigned(s.c(), config.cMax()) <= 0, Property.R22_1, "arc_c_min ("
                + config.cMin() + ") <= arc_c <= arc_c_max (" + config.cMax() + ")", s);
    }

    /**
     * R22-2: with {@link QuirkFix#EVICT_ADJ_OVERFLOW_17255} every fraction is in {@code [0, 2^32]} (zfs-2.2.8's
     * {@code arc_evict_adj} asserts {@code frac <= 1ULL << 32}, {@code up <= 2^32 - frac} and
     * {@code down <= frac}), {@code arc_meta} only for {@code zfs_arc_meta_balance >= 100} (the class comment). A
     * u64 below 0 wraps to above 2^32, so one unsigned comparison covers both ends.
     */
    static void r2FractionsInRange(ArcConfig config, int metaBalance, Arc22Snapshot s) {
        if (config.applies(QuirkFix.EVICT_ADJ_OVERFLOW_17255)) {
            List<String> out = fractionsOutOfRange(s);
            if (metaBalance < 100) {
                out.removeIf(f -> f.startsWith("arc_meta="));
            }
            require(out.isEmpty(), Property.R22_2, "with EVICT_ADJ_OVERFLOW_17255 the fractions stay in [0, 2^32] ("
                    + "arc_meta for zfs_arc_meta_balance >= 100, here " + metaBalance + "), but " + out, s);
        }
    }

    /** R22-3 and R22-4: the accounting, per state and type ({@link EngineChecks#accounting}). */
    static void r3r4Accounting(Arc22Snapshot s) {
        EngineChecks.accounting(s.headers(), new EngineChecks.Reported(s.size(), s.stat(ArcStat.COMPRESSED_SIZE),
                s.stat(ArcStat.UNCOMPRESSED_SIZE), s.stat(ArcStat.OVERHEAD_SIZE), s::state,
                List.of(BufType.values())), Property.R22_3, Property.R22_4, s);
    }

    /**
     * R22-7: when the free-running evictor ran in an operation that allocates nothing, its last pass left
     * {@code arc_size <= arc_c}, unless some live data could not be evicted (held, anonymous, or a prefetch within
     * its lifetime) or a fraction is out of range. Why nothing else can stop it: the pass that ends the evictor's
     * loop evicted nothing (else it runs again while {@code arc_size > arc_c}); {@code arc_size} is the four classes'
     * total {@code t}, so {@code wt = arc_c}; a step evicts nothing only when its class is within its target or has
     * nothing evictable; with every fraction in range the targets are {@code arc_c * meta} for metadata and at most
     * {@code (arc_c - m) * pd} for MRU data, and MFU data takes the whole excess; so with everything evictable
     * {@code t <= m + (arc_c - m) = arc_c}.
     */
    static void r7EvictionReachedTarget(ArcConfig config, Arc22Snapshot s) {
        if (Long.compareUnsigned(s.size(), s.c()) <= 0) {
            return;
        }
        boolean blocked = !fractionsOutOfRange(s).isEmpty()
                || EngineChecks.liveDataHeldOrYoung(config, s.headers(), s.tick());
        require(blocked, Property.R22_7, "the evictor's last pass leaves arc_size <= arc_c unless "
                + "eviction is blocked", s);
    }

    /**
     * R22-9: {@code arc_c} falls only by {@code arc_reduce_target_size} (a shrink or the reaper), and grows only in
     * {@code arc_adapt}, which every allocation calls: by at most {@code MAX(bytes, SPA_OLD_MAXBLOCKSIZE)} per
     * allocation, and not while {@code arc_no_grow}. The allocations are counted from arc.c: a read that misses or
     * hits a ghost allocates the header's data; a demand read's buffer shares linear header data when it is the
     * header's first buffer (C2770–2779), else it is a copy; a write allocates its buffer; a completed write
     * shares the writer's buffer when the data is linear, else allocates header data (C6316).
     */
    static void r9TargetChanges(ArcConfig config, long oldMaxBlockSize, Arc22Snapshot before, Operation op,
            Arc22Snapshot after) {
        int cmp = Long.compareUnsigned(after.c(), before.c());
        if (cmp < 0) {
            require(op instanceof Operation.Shrink || op instanceof Operation.Reap, Property.R22_9,
                    "arc_c falls only by arc_reduce_target_size (shrink, reap); it fell by "
                    + (before.c() - after.c()) + " on " + op.toTraceLine(), after);
            return;
        }
        if (cmp == 0) {
            return;
        }
        long grown = after.c() - before.c();
        long allocations = 0;
        long size = 0;
        if (op instanceof Operation.Read r) {
            size = r.size();
            boolean linear = ArcInvariants.allocatedLinear(config.tunables(), size);
            HeaderSnapshot h = cachedHeader(before, r.key());
            boolean demand = r.kind() == ReadKind.DEMAND;
            if (h == null || h.state().isGhost()) {
                allocations = 1 + (demand && !linear ? 1 : 0);
            } else {
                allocations = demand && !(h.refcount() == 0 && linear) ? 1 : 0;
            }
        } else if (op instanceof Operation.Write w) {
            size = w.size();
            allocations = 1;
        } else if (op instanceof Operation.Complete c) {
            for (HeaderSnapshot h : before.headers()) {
                if (h.key() == c.key() && h.state() == ArcState.ANON) {
                    size = h.size();
                }
            }
            allocations = ArcInvariants.allocatedLinear(config.tunables(), size) ? 0 : 1;
        }
        long step = Math.max(size, oldMaxBlockSize);
        require(allocations > 0, Property.R22_9, "arc_c grows only in arc_adapt, on an allocation; it "
                + "grew by " + grown + " on " + op.toTraceLine(), after);
        require(grown <= allocations * step, Property.R22_9, "arc_c grows by at most MAX(bytes, "
                + "SPA_OLD_MAXBLOCKSIZE) per allocation (" + allocations + " of " + step + "), grew by " + grown,
                after);
        require(!before.noGrow(), Property.R22_9, "arc_c does not grow while arc_no_grow", after);
    }

    /**
     * R22-11: {@code arc_evict} ends by trimming each ghost list, per type, to half the other three live classes
     * after eviction (anon counted as MRU; C4327–4345), and a ghost header is never skipped; so when the pass was
     * the last thing an operation did, each ghost list holds at most that.
     */
    static void r11GhostListsTrimmed(Arc22Snapshot s) {
        long mrud = s.state(ArcState.MRU, BufType.DATA).size() + s.state(ArcState.ANON, BufType.DATA).size();
        long mrum = s.state(ArcState.MRU, BufType.METADATA).size() + s.state(ArcState.ANON, BufType.METADATA).size();
        long mfud = s.state(ArcState.MFU, BufType.DATA).size();
        long mfum = s.state(ArcState.MFU, BufType.METADATA).size();
        requireGhostWithin(s, ArcState.MRU_GHOST, BufType.DATA, (mrum + mfud + mfum) / 2);
        requireGhostWithin(s, ArcState.MRU_GHOST, BufType.METADATA, (mrud + mfud + mfum) / 2);
        requireGhostWithin(s, ArcState.MFU_GHOST, BufType.DATA, (mrud + mrum + mfum) / 2);
        requireGhostWithin(s, ArcState.MFU_GHOST, BufType.METADATA, (mrud + mrum + mfud) / 2);
    }

    private static void requireGhostWithin(Arc22Snapshot s, ArcState ghost, BufType type, long bound) {
        StateSnapshot g = s.state(ghost, type);
        require(g.size() <= bound, Property.R22_11, ghost.zfsName() + " " + type.zfsName() + " ("
                + g.size() + ") <= half the other three live classes (" + bound + ") after the evictor's pass", s);
    }

    /**
     * R22-12: {@code arcs_hits[type]} of a ghost state grows only when a read finds a header of that type in that
     * ghost state, by the header's size (C5080, C5109); and the fractions move only in {@code arc_evict}, so not in
     * an operation in which the evictor did not run.
     */
    static void r12GhostHitsAndFractions(Arc22Snapshot before, Operation op, Arc22Snapshot after) {
        HeaderSnapshot hit = op instanceof Operation.Read r ? cachedHeader(before, r.key()) : null;
        for (ArcState ghost : List.of(ArcState.MRU_GHOST, ArcState.MFU_GHOST)) {
            for (BufType type : BufType.values()) {
                long expected = before.ghostHits(ghost, type);
                if (hit != null && hit.state() == ghost && hit.type() == type) {
                    expected += hit.size();
                }
                require(after.ghostHits(ghost, type) == expected, Property.R22_12, "arcs_hits["
                        + type.zfsName() + "] of " + ghost.zfsName() + " == " + expected + " after "
                        + op.toTraceLine(), after);
            }
        }
        if (after.stat(ArcStat.EVICTOR_RUNS) == before.stat(ArcStat.EVICTOR_RUNS)) {
            require(after.meta() == before.meta() && after.pd() == before.pd()
                    && after.pm() == before.pm(), Property.R22_12, "the fractions move only in an eviction pass; "
                    + "none ran in " + op.toTraceLine(), after);
        }
    }

    /**
     * R22-13: a block's type comes from its block pointer, so a header keeps its type from one operation to the
     * next, and a read or write leaves its key's header of the type it named.
     */
    static void r13TypeKept(Arc22Snapshot before, Operation op, Arc22Snapshot after) {
        Map<Long, BufType> types = new HashMap<>();
        for (HeaderSnapshot h : before.headers()) {
            types.put(h.key(), h.type());
        }
        BufType named = op instanceof Operation.Read r ? r.type() : op instanceof Operation.Write w ? w.type() : null;
        long key = op instanceof Operation.Read r ? r.key() : op instanceof Operation.Write w ? w.key() : -1;
        for (HeaderSnapshot h : after.headers()) {
            BufType was = types.get(h.key());
            require(was == null || was == h.type(), Property.R22_13, "a header keeps its type ("
                    + (was == null ? "" : was.zfsName()) + "), " + h, after);
            require(named == null || h.key() != key || h.type() == named, Property.R22_13,
                    op.toTraceLine() + " leaves its key's header of the type it names, " + h, after);
        }
    }

    /** @return the key's header in a state other than anon, or null */
    private static HeaderSnapshot cachedHeader(Arc22Snapshot s, long key) {
        for (HeaderSnapshot h : s.headers()) {
            if (h.key() == key && h.state() != ArcState.ANON) {
                return h;
            }
        }
        return null;
    }

    private static void require(boolean ok, Property invariant, String detail, Arc22Snapshot s) {
        EngineChecks.require(ok, invariant, detail, s);
    }
}
