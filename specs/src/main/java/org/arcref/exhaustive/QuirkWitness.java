package org.arcref.exhaustive;

import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;

/**
 * For each {@link QuirkFix}, a transition that shows the 2.1.1 quirk. The explorer records the depth at which each
 * is first seen and, where the witness is the quirk's effect ({@link #effect()}), reports a violation if it is
 * seen on a configuration that applies the fix: the property "the quirk happens without its fix and never with
 * it" of the quirk switches, checked on every transition.
 */
public enum QuirkWitness {
    /**
     * #14137: an anonymous allocation (a read miss or a write) raises {@code arc_p} although it was already at
     * least {@code arc_c / 2}. With the fix, both growth sites require {@code arc_p < arc_c >> 1} at the time, and
     * {@code arc_c} only grows during the operation, so {@code arc_p} grows only from below {@code after.c / 2}.
     */
    ARC_P_GROWTH_PAST_HALF(QuirkFix.ARC_P_GROWTH_CAP_14137, true) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            return (outcome == Outcome.MISS || outcome == Outcome.WRITTEN)
                    && Long.compareUnsigned(after.p(), before.p()) > 0
                    && Long.compareUnsigned(before.p(), after.c() >>> 1) >= 0;
        }
    },
    /**
     * The MRU-ghost twin of O1, removed by #14094: the condition of the wrap, not its effect (see
     * {@link #productWraps}). Recorded, never a violation.
     */
    ADAPT_MRU_PRODUCT_WRAPS(QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094, false) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            return outcome == Outcome.GHOST_HIT_MRU && productWraps(config, before, op, true);
        }
    },
    /**
     * O1, removed by this project's fix: the condition of the wrap in the MFU-ghost branch, not its effect (see
     * {@link #productWraps}). Recorded, never a violation.
     */
    ADAPT_MFU_PRODUCT_WRAPS(QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS, false) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            return outcome == Outcome.GHOST_HIT_MFU && productWraps(config, before, op, false);
        }
    },
    /**
     * #12425: a write completes with {@code zfs_abd_scatter_enabled}, the writer keeping its hold, and a block small
     * enough for a linear ABD, and its header got a copy of its own rather than sharing the writer's buffer. With
     * the fix such a block shares. (Without the hold the writer's buffer is destroyed at once and the header keeps
     * the data either way.) Seen only where a block is below {@code zfs_abd_scatter_min_size}: X1's CI
     * configuration scales the minimum down to its one block size, so only {@code --two-sizes} reaches it.
     */
    WRITE_COPIES_LINEAR_BLOCK(QuirkFix.WRITE_SHARES_LINEAR_12425, true) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            if (!(op instanceof Operation.Complete c) || !c.hold() || !config.tunables().abdScatterEnabled()) {
                return false;
            }
            return after.headers().stream().anyMatch(h -> h.key() == c.key() && h.hasData() && !h.sharedData()
                    && h.size() < config.tunables().abdScatterMinSize());
        }
    },
    /** O2: {@code arc_p > arc_c} after an operation. The fix clamps it in {@code arc_reduce_target_size}. */
    ARC_P_ABOVE_ARC_C(QuirkFix.SHRINK_CLAMPS_ARC_P_OURS, true) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            return Long.compareUnsigned(after.p(), after.c()) > 0;
        }
    },
    /**
     * #13794: a reap at {@code arc_c == arc_c_min} that still reduces the target: it wakes the evictor (sets
     * {@code arc_evict_needed} or runs it) when the evictor was idle. With the fix {@code to_free} is computed from
     * {@code arc_c - arc_c_min = 0}, so nothing is reduced and the evictor is not woken.
     */
    REAP_AT_ARC_C_MIN(QuirkFix.REAP_ABOVE_C_MIN_13794, true) {
        @Override
        boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after) {
            return outcome == Outcome.REAPED && before.c() == before.cMin() && !before.evictNeeded()
                    && (after.evictNeeded()
                            || after.stats().get(ArcStat.EVICTOR_RUNS) > before.stats().get(ArcStat.EVICTOR_RUNS));
        }
    };

    /**
     * Whether a ghost hit's {@code bytes * mult} (the ghost-size quotient, dampened to 10 unless
     * {@code zfs_arc_p_dampener_disable}) is at least 2^31, where 2.1.1's 32-bit {@code int} product wraps. It needs
     * ghost lists thousands of times the block, out of reach of small caches.
     */
    private static boolean productWraps(ArcConfig config, ArcSnapshot before, Operation op, boolean mru) {
        long hit = before.state(mru ? ArcState.MRU_GHOST : ArcState.MFU_GHOST).size();
        long other = before.state(mru ? ArcState.MFU_GHOST : ArcState.MRU_GHOST).size();
        long mult = hit >= other ? 1 : other / hit;
        if (!config.tunables().pDampenerDisable()) {
            mult = Math.min(mult, 10);
        }
        long bytes = ((Operation.Read) op).size();
        return mult > Integer.MAX_VALUE || bytes * mult > Integer.MAX_VALUE;
    }

    private final QuirkFix fix;
    private final boolean effect;

    QuirkWitness(QuirkFix fix, boolean effect) {
        this.fix = fix;
        this.effect = effect;
    }

    /** @return the fix that removes the quirk */
    public QuirkFix fix() {
        return fix;
    }

    /** @return whether the witness is the quirk's effect, which must never be seen with the fix applied */
    public boolean effect() {
        return effect;
    }

    /**
     * @param config the configuration
     * @param before the state before {@code op}
     * @param op an operation the spec accepted
     * @param outcome its outcome
     * @param after the state after it
     * @return whether this transition shows the quirk
     */
    abstract boolean seen(ArcConfig config, ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after);
}
