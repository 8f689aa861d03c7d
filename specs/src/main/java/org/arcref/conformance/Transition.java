package org.arcref.conformance;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;

/**
 * The state transitions and mechanisms of the ARC that conformance traces are meant to reach, each
 * recognised from one operation: its outcome, the evictions it reported and the snapshots before
 * and after it. {@link #observed} is the definition of "covered".
 */
public enum Transition {
    /** A demand read miss: a new header through anon to MRU ({@code arc_read}, {@code arc_access}). */
    MISS_ANON_TO_MRU("read miss: anon -> mru"),
    /** A prefetch read miss (plain or prescient): the header is marked prefetched. */
    PREFETCH_MISS("prefetch read miss: anon -> mru, marked prefetched"),
    /** A prescient prefetch read (hit or miss). */
    PRESCIENT_PREFETCH("prescient prefetch read"),
    /** A write: an anonymous dirty buffer ({@code arc_alloc_buf}). */
    WRITE_ANON("write: new anonymous buffer"),
    /** A write completed: anon to MRU ({@code arc_write_done}). */
    WRITE_DONE_ANON_TO_MRU("write completed: anon -> mru"),
    /** An MRU hit within {@code ARC_MINTIME}: stays in MRU. */
    MRU_HIT_STAYS("mru hit within ARC_MINTIME: stays in mru"),
    /** An MRU hit after {@code ARC_MINTIME}: promoted to MFU. */
    MRU_TO_MFU("mru hit after ARC_MINTIME: mru -> mfu"),
    /** An MFU hit. */
    MFU_HIT("mfu hit: stays in mfu"),
    /** A prefetch read that hit. */
    PREFETCH_HIT("prefetch read hit"),
    /** A hit on an MRU-ghost header with {@code arc_p} growing ({@code arc_adapt}). */
    MRU_GHOST_HIT_GROWS_P("mru_ghost hit: arc_adapt grows arc_p"),
    /** A hit on an MFU-ghost header with {@code arc_p} shrinking ({@code arc_adapt}). */
    MFU_GHOST_HIT_SHRINKS_P("mfu_ghost hit: arc_adapt shrinks arc_p"),
    /** A ghost hit that goes to MFU. */
    GHOST_TO_MFU("ghost hit: ghost -> mfu"),
    /** A ghost hit on a prefetched header, which goes back to MRU. */
    GHOST_TO_MRU_PREFETCHED("ghost hit on a prefetched header: ghost -> mru"),
    /** Anonymous allocation growing {@code arc_p} ({@code arc_get_data_impl} or {@code arc_adapt}). */
    ANON_GROWS_P("anonymous allocation grows arc_p"),
    /** {@code arc_adapt} growing {@code arc_c}. */
    ARC_C_GROWS("arc_adapt grows arc_c"),
    /** Eviction of MRU data: header to MRU ghost. */
    EVICT_MRU_TO_GHOST("eviction: mru -> mru_ghost"),
    /** Eviction of MFU data: header to MFU ghost. */
    EVICT_MFU_TO_GHOST("eviction: mfu -> mfu_ghost"),
    /** Eviction of an MRU-ghost header: destroyed. */
    DELETE_MRU_GHOST("eviction: mru_ghost header destroyed"),
    /** Eviction of an MFU-ghost header: destroyed. */
    DELETE_MFU_GHOST("eviction: mfu_ghost header destroyed"),
    /** A prefetched header younger than its minimum lifetime skipped by eviction ({@code evict_skip}). */
    PREFETCH_EVICT_SKIP("eviction skips a young prefetched header (evict_skip)"),
    /** Eviction skipping the header being allocated ({@code mutex_miss}). */
    MUTEX_MISS("eviction skips the locked header (mutex_miss)"),
    /** An eviction scan that could not evict what it was asked for ({@code evict_not_enough}). */
    EVICT_NOT_ENOUGH("eviction scan finds too little (evict_not_enough)"),
    /** A severe overflow: an allocation queued as an eviction waiter. */
    EVICTION_WAITER("allocation waits for eviction (arc_wait_for_eviction)"),
    /** An explicit evictor step that ran {@code arc_evict_cb}. */
    EVICTOR_STEP("evict zthr step runs arc_evict_cb"),
    /** A demand read that keeps its hold: the header leaves its eviction list. */
    HOLD("read or completed write keeps a hold"),
    /** A demand hit on an already held header: a second buffer, a private copy. */
    SECOND_HOLD_COPY("demand hit on a held header: private copy"),
    /**
     * A demand read that keeps the first hold on a block whose data is a scatter ABD: the buffer cannot share it
     * and is a private copy ({@code arc_buf_alloc_impl}).
     */
    SCATTER_FIRST_HOLD_COPY("first hold on scatter data: private copy"),
    /** A write completed with the writer's hold kept, its header given data of its own ({@code arc_write_ready}). */
    WRITE_READY_COPIES("write completed: header data of its own (scatter ABDs)"),
    /** A write completed with the writer's hold kept, the writer's buffer shared ({@code arc_share_buf}). */
    WRITE_READY_SHARES("write completed: the writer's buffer shared (arc_share_buf)"),
    /** A demand hit on a header marked prescient ({@code demand_hit_prescient_prefetch}). */
    DEMAND_HIT_PRESCIENT("demand hit on a prescient prefetch (demand_hit_prescient_prefetch)"),
    /** A hold released. */
    RELEASE("hold released"),
    /**
     * An overwrite of a block's lone held buffer: {@code arc_release} moves the header to anon and drops its
     * identity, so the old key is gone.
     */
    OVERWRITE_LONE_BUFFER("overwrite of a lone buffer: header -> anon, old identity gone (arc_release)"),
    /**
     * An overwrite of one of several held buffers: {@code arc_release} moves it to a new anonymous header, the old
     * header stays cached with one hold fewer.
     */
    OVERWRITE_NEW_HEADER("overwrite of one of several buffers: new anon header, old one stays (arc_release)"),
    /** A free of an unreferenced cached header (MRU or MFU). */
    FREE_CACHED("free of a cached header"),
    /** A free of a ghost header. */
    FREE_GHOST("free of a ghost header"),
    /** A free of a pending write. */
    FREE_PENDING_WRITE("free of a pending (anonymous) write"),
    /** A free that finds the header held and leaves it. */
    FREE_HELD_SKIPPED("free of a held header: skipped"),
    /** A free of an unknown key. */
    FREE_NOT_CACHED("free of an unknown key"),
    /** {@code arc_reduce_target_size} lowering {@code arc_c} but staying above {@code arc_c_min}. */
    SHRINK_ABOVE_C_MIN("arc_reduce_target_size: arc_c lowered, above arc_c_min"),
    /** {@code arc_reduce_target_size} clamping {@code arc_c} to {@code arc_c_min}. */
    SHRINK_TO_C_MIN("arc_reduce_target_size: arc_c = arc_c_min"),
    /** The reap zthr finding memory short and reducing the target. */
    REAP_REDUCES_TARGET("reap under memory pressure reduces arc_c"),
    /** {@code arc_no_grow} set (by the reaper's check). */
    NO_GROW_SET("arc_no_grow set"),
    /** {@code arc_no_grow} cleared after {@code arc_grow_retry}. */
    NO_GROW_CLEARED("arc_no_grow cleared");

    private final String description;

    Transition(String description) {
        this.description = description;
    }

    /** @return a one-line description */
    public String description() {
        return description;
    }

    /**
     * @param op the operation
     * @param outcome what it returned
     * @param evicted what it evicted, in order
     * @param before the state before it
     * @param after the state after it
     * @return the transitions this operation shows
     */
    public static Set<Transition> observed(Operation op, Outcome outcome, List<Eviction> evicted, ArcSnapshot before,
            ArcSnapshot after) {
        Set<Transition> t = EnumSet.noneOf(Transition.class);
        HeaderSnapshot was = key(op) == null ? null : header(before, key(op));
        HeaderSnapshot now = key(op) == null ? null : header(after, key(op));
        ArcState nowState = now == null ? null : now.state();
        boolean pUp = Long.compareUnsigned(after.p(), before.p()) > 0;
        switch (outcome) {
            case MISS -> t.add(((Operation.Read) op).kind().isPrefetch() ? PREFETCH_MISS : MISS_ANON_TO_MRU);
            case WRITTEN -> t.add(WRITE_ANON);
            case WRITE_COMPLETED -> t.add(WRITE_DONE_ANON_TO_MRU);
            case HIT_MRU -> t.add(nowState == ArcState.MFU ? MRU_TO_MFU : MRU_HIT_STAYS);
            case HIT_MFU -> t.add(MFU_HIT);
            case GHOST_HIT_MRU, GHOST_HIT_MFU -> {
                if (outcome == Outcome.GHOST_HIT_MRU && pUp) {
                    t.add(MRU_GHOST_HIT_GROWS_P);
                }
                if (outcome == Outcome.GHOST_HIT_MFU && Long.compareUnsigned(after.p(), before.p()) < 0) {
                    t.add(MFU_GHOST_HIT_SHRINKS_P);
                }
                if (nowState == ArcState.MFU) {
                    t.add(GHOST_TO_MFU);
                } else if (nowState == ArcState.MRU) {
                    t.add(GHOST_TO_MRU_PREFETCHED);
                }
            }
            case RELEASED -> t.add(RELEASE);
            case OVERWRITTEN -> t.add(was.refcount() == 1 ? OVERWRITE_LONE_BUFFER : OVERWRITE_NEW_HEADER);
            case FREED -> t.add(was.state() == ArcState.ANON ? FREE_PENDING_WRITE
                    : was.state().isGhost() ? FREE_GHOST : FREE_CACHED);
            case FREE_SKIPPED_HELD -> t.add(FREE_HELD_SKIPPED);
            case NOT_CACHED -> t.add(FREE_NOT_CACHED);
            case TARGET_REDUCED -> t.add(after.c() == after.cMin() ? SHRINK_TO_C_MIN : SHRINK_ABOVE_C_MIN);
            case REAPED -> t.add(REAP_REDUCES_TARGET);
            case EVICTOR_RAN -> t.add(EVICTOR_STEP);
            default -> {
            }
        }
        if (op instanceof Operation.Read r) {
            if (r.kind() == ReadKind.PRESCIENT_PREFETCH) {
                t.add(PRESCIENT_PREFETCH);
            }
            if (r.kind().isPrefetch() && outcome.isHit()) {
                t.add(PREFETCH_HIT);
            }
            if (r.hold()) {
                t.add(HOLD);
            }
            if (r.kind() == ReadKind.DEMAND && was != null && was.refcount() > 0 && !was.state().isGhost()) {
                t.add(SECOND_HOLD_COPY);
            }
            if (r.hold() && now.refcount() == 1 && !now.sharedData()) {
                t.add(SCATTER_FIRST_HOLD_COPY);
            }
            if ((outcome == Outcome.MISS) && pUp) {
                t.add(ANON_GROWS_P);
            }
        }
        if (op instanceof Operation.Complete c && c.hold()) {
            t.add(HOLD);
            t.add(now.sharedData() ? WRITE_READY_SHARES : WRITE_READY_COPIES);
        }
        if (outcome == Outcome.WRITTEN && pUp) {
            t.add(ANON_GROWS_P);
        }
        if (Long.compareUnsigned(after.c(), before.c()) > 0) {
            t.add(ARC_C_GROWS);
        }
        for (Eviction e : evicted) {
            t.add(switch (e.from()) {
                case MRU -> EVICT_MRU_TO_GHOST;
                case MFU -> EVICT_MFU_TO_GHOST;
                case MRU_GHOST -> DELETE_MRU_GHOST;
                default -> DELETE_MFU_GHOST;
            });
        }
        statRose(t, before, after, ArcStat.EVICT_SKIP, PREFETCH_EVICT_SKIP);
        statRose(t, before, after, ArcStat.MUTEX_MISS, MUTEX_MISS);
        statRose(t, before, after, ArcStat.EVICT_NOT_ENOUGH, EVICT_NOT_ENOUGH);
        statRose(t, before, after, ArcStat.EVICT_WAITS, EVICTION_WAITER);
        statRose(t, before, after, ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH, DEMAND_HIT_PRESCIENT);
        if (!before.noGrow() && after.noGrow()) {
            t.add(NO_GROW_SET);
        }
        if (before.noGrow() && !after.noGrow()) {
            t.add(NO_GROW_CLEARED);
        }
        return t;
    }

    private static void statRose(Set<Transition> t, ArcSnapshot before, ArcSnapshot after, ArcStat stat,
            Transition transition) {
        if (after.stats().get(stat) > before.stats().get(stat)) {
            t.add(transition);
        }
    }

    private static Long key(Operation op) {
        if (op instanceof Operation.Read r) {
            return r.key();
        } else if (op instanceof Operation.Write w) {
            return w.key();
        } else if (op instanceof Operation.Complete c) {
            return c.key();
        } else if (op instanceof Operation.Release r) {
            return r.key();
        } else if (op instanceof Operation.Overwrite o) {
            return o.key();
        } else if (op instanceof Operation.Free f) {
            return f.key();
        }
        return null;
    }

    private static HeaderSnapshot header(ArcSnapshot s, long key) {
        for (HeaderSnapshot h : s.headers()) {
            if (h.key() == key) {
                return h;
            }
        }
        return null;
    }
}
