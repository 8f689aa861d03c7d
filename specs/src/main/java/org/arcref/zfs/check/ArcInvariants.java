package org.arcref.zfs.check;

import java.util.List;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.Tunables;

/**
 * The ARC invariants of fact sheet (f) (R1–R13) as checks on two consecutive snapshots of the
 * spec and the operation between them. Each failure is a {@link PropertyViolation} naming the invariant
 * ({@link Property#R1} … {@link Property#R13}), how it broke, and the snapshot.
 *
 * <p>Used by the spec's invariant property (specs), by {@code arc explore} on random operation sequences and, for
 * R3/R4 on a quiescent snapshot, by the concurrent ARC's soak.
 *
 * <p>The checks compute what they expect on their own, from arc.c and abd.c, and call none of the implementation's
 * helpers ({@code ArcArithmetic}, {@code HeaderSnapshot#accountedSize}, {@code ArcConfig#msToTicks}): the bytes a
 * header counts ({@link #heldBytes}), whether an ABD of a size is linear ({@link #allocatedLinear}) and a lifetime in
 * ticks ({@link #ticks}) are derived here again, so an arithmetic bug in the spec's shared core is not also in its
 * checker.
 */
public final class ArcInvariants {

    private ArcInvariants() {
    }

    /**
     * Checks every invariant that applies to one operation.
     *
     * @param config the ARC's configuration
     * @param before the snapshot before {@code op}, or null for the first operation
     * @param op the operation
     * @param outcome what it returned
     * @param after the snapshot after it
     * @throws PropertyViolation naming the first invariant that fails
     */
    public static void check(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
        r1TargetWithinLimits(after);
        r2MruTargetNonNegative(config, after);
        r3r4Accounting(after);
        r5r6Headers(config, after);
        r8EvictCountAndWaiters(before, after);
        if (before != null) {
            r12TargetGrowsOnlyInAdapt(config, before, op, outcome, after);
        }
        if (config.evictorRunsAfterEachOperation()) {
            r13EvictorSleepsWhenDone(after);
            boolean allocates = op instanceof Operation.Read || op instanceof Operation.Write
                    || op instanceof Operation.Complete;
            if (before != null && !allocates
                    && after.stats().get(ArcStat.EVICTOR_RUNS) > before.stats().get(ArcStat.EVICTOR_RUNS)) {
                r7EvictionReachedTarget(config, after);
            }
        }
    }

    static void r1TargetWithinLimits(ArcSnapshot s) {
        require(Long.compareUnsigned(s.cMin(), s.c()) <= 0 && Long.compareUnsigned(s.c(), s.cMax()) <= 0,
                Property.R1, "arc_c_min <= arc_c <= arc_c_max", s);
    }

    static void r2MruTargetNonNegative(ArcConfig config, ArcSnapshot s) {
        require(s.p() >= 0, Property.R2, "(int64)arc_p >= 0", s);
        if (config.applies(QuirkFix.SHRINK_CLAMPS_ARC_P_OURS)) {
            require(Long.compareUnsigned(s.p(), s.c()) <= 0, Property.R2, "with the O2 fix, arc_p <= arc_c", s);
        }
    }

    /**
     * R3 and R4: {@code arc_size} is the resident data, each state's sizes the sums over its headers
     * ({@link #heldBytes}: the header's data plus one private copy per buffer that does not share it), and every MRU and MFU header holds data (R4's "bufs + pabd": a listed header without data would count 0
     * bytes). The gauges agree: {@code compressed_size} and {@code uncompressed_size} are the header data,
     * {@code overhead_size} the private copies, and together they are {@code arc_size}.
     *
     * @param s a snapshot taken when no operation was in flight
     * @throws PropertyViolation (R3 or R4) if the accounting does not add up
     */
    public static void r3r4Accounting(ArcSnapshot s) {
        EngineChecks.accounting(s.headers(), new EngineChecks.Reported(s.size(), s.stats().get(ArcStat.COMPRESSED_SIZE),
                s.stats().get(ArcStat.UNCOMPRESSED_SIZE), s.stats().get(ArcStat.OVERHEAD_SIZE),
                (state, type) -> s.state(state), List.of(BufType.DATA)), Property.R3, Property.R4, s);
    }

    static void r5r6Headers(ArcConfig config, ArcSnapshot s) {
        EngineChecks.listsAndData(config, s.headers(), Property.R5, Property.R6, s);
    }

    static void r8EvictCountAndWaiters(ArcSnapshot before, ArcSnapshot after) {
        EngineChecks.evictCountAndWaiters(before == null ? null : before.evictCount(), after.evictCount(),
                after.waiterCounts(), Property.R8, Property.R9, after);
    }

    /**
     * R12: {@code arc_c} grows only in {@code arc_adapt}, by at most the bytes of the allocations that adapt: a miss's
     * header data or a ghost hit's {@code arc_adapt}; a demand read's buffer unless it shares linear data, which only
     * the first buffer of a header can (arc.c 2791-2805); a write's buffer; a completed write's header data, which
     * only {@code zfs_abd_scatter_enabled} allocates ({@code arc_write_ready}, 6885-6914; without it the buffer is
     * shared and nothing adapts).
     */
    static void r12TargetGrowsOnlyInAdapt(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome,
            ArcSnapshot after) {
        if (Long.compareUnsigned(after.c(), before.c()) <= 0) {
            return;
        }
        long grown = after.c() - before.c();
        long bytes = 0;
        if (op instanceof Operation.Read r) {
            int holdsBefore = outcome.isHit() ? before.headers().stream()
                    .filter(h -> h.key() == r.key() && h.state() != ArcState.ANON)
                    .mapToInt(HeaderSnapshot::refcount).sum() : 0;
            boolean copy = r.kind() == org.arcref.zfs.ReadKind.DEMAND
                    && !(holdsBefore == 0 && allocatedLinear(config.tunables(), r.size()));
            int adapting = (outcome.isHit() ? 0 : 1) + (copy ? 1 : 0);
            bytes = adapting * r.size();
        } else if (op instanceof Operation.Write w) {
            bytes = w.size();
        } else if (op instanceof Operation.Complete c && config.tunables().abdScatterEnabled()) {
            bytes = before.headers().stream().filter(h -> h.key() == c.key() && h.state() == ArcState.ANON)
                    .mapToLong(HeaderSnapshot::size).sum();
        }
        require(bytes > 0, Property.R12, "arc_c grows only in arc_adapt, on an allocation (a miss's or ghost hit's header data, "
                + "a demand read's private copy, a write's buffer, a completed write's header data); it grew by "
                + grown + " on " + op.toTraceLine() + " -> " + outcome, after);
        require(grown <= bytes, Property.R12, "arc_c grows by at most the allocation (" + bytes + "), grew by " + grown, after);
        require(!before.noGrow(), Property.R12, "arc_c does not grow while arc_no_grow", after);
    }

    static void r13EvictorSleepsWhenDone(ArcSnapshot s) {
        require(!s.evictNeeded(), Property.R13, "a free-running evictor goes back to sleep (arc_evict_needed FALSE)", s);
    }

    /**
     * R7: when the evictor ran last in an operation, it stopped because the size reached the
     * target or because nothing more could be evicted: some data is held (anonymous data always
     * is) or a young prefetch, or {@code arc_p > arc_c} sends all eviction to MFU (O2). (Releases
     * do not wake the evictor, so after other operations the ARC may overflow until the next
     * allocation.)
     */
    static void r7EvictionReachedTarget(ArcConfig config, ArcSnapshot s) {
        if (Long.compareUnsigned(s.size(), s.c()) <= 0) {
            return;
        }
        boolean blocked = Long.compareUnsigned(s.p(), s.c()) > 0
                || EngineChecks.liveDataHeldOrYoung(config, s.headers(), s.tick());
        require(blocked, Property.R7, "an eviction pass leaves arc_size <= arc_c unless eviction is blocked", s);
    }

    /**
     * The bytes a header counts in its state's {@code arcs_size}, from {@code arc_change_state} (arc.c:2454-2485) and
     * {@code arc_evict_hdr}: a ghost counts its logical size; any other header its data ({@code b_pabd}), if it has
     * any, and one private copy per buffer (one per hold) except a buffer that shares the header's data.
     */
    static long heldBytes(HeaderSnapshot h) {
        if (h.state().isGhost()) {
            return h.size();
        }
        long copies = h.sharedData() ? h.refcount() - 1 : h.refcount();
        long data = h.hasData() ? h.size() : 0;
        return data + copies * h.size();
    }

    /**
     * Whether {@code abd_alloc} gives a header's data of {@code size} bytes a linear ABD (abd.c:184): when
     * {@code zfs_abd_scatter_enabled} is off, or {@code abd_size_alloc_linear(size)}, which on Linux is
     * {@code size < zfs_abd_scatter_min_size} (abd_os.c:633). Only a linear ABD can be shared with a buffer.
     */
    static boolean allocatedLinear(Tunables tunables, long size) {
        if (!tunables.abdScatterEnabled()) {
            return true;
        }
        return size < tunables.abdScatterMinSize();
    }

    /** {@code MSEC_TO_TICK(ms)}: milliseconds in ticks of the configuration's clock, rounded up. */
    static long ticks(ArcConfig config, long ms) {
        long ticks = ms * config.hz() / 1000;
        return ticks * 1000 == ms * config.hz() ? ticks : ticks + 1;
    }

    private static void require(boolean ok, Property invariant, String detail, ArcSnapshot s) {
        EngineChecks.require(ok, invariant, detail, s);
    }
}
