package org.arcref.zfs;

import java.util.Optional;

/**
 * Known defects of an ARC engine of the spec ({@link #engine()}: zfs-2.1.1's or zfs-2.2.0's), each with the fix that
 * removes it. By default none is applied and the engine reproduces its release; a configuration that lists a fix
 * applies it. A fix is either upstream's, named for its pull
 * request, with the commit that carries it and the first release that shipped it ({@link #upstreamPr()},
 * {@link #commit()}, {@link #firstRelease()}), or this project's own, named {@code ..._OURS}, with no upstream
 * counterpart. {@link ZfsRelease} names the set of fixes a release shipped. The properties in {@code specs/} show
 * each quirk happening without its fix and never with it; the oracle module proves each upstream fix against the
 * arc.c that carries it (docs/scope.md, "Quirk switches").
 */
public enum QuirkFix {
    /**
     * OpenZFS #12425 (zfs-2.1.6): {@code arc_write_ready} decides whether a written block's header gets data of its
     * own (a copy of the writer's buffer) by {@code zfs_abd_scatter_enabled} alone, so with scatter on a block too
     * small for a scatter ABD ({@code size < zfs_abd_scatter_min_size}) is still copied. The fix asks
     * {@code !abd_size_alloc_linear(size)}: only a block that would be scatter is copied; a linear one shares the
     * writer's buffer.
     */
    WRITE_SHARES_LINEAR_12425(ZfsEngine.V2_1_1, 12425, "415882d228", "2.1.6"),
    /**
     * OpenZFS #13794 (zfs-2.1.6): {@code arc_reap_cb} computes {@code to_free} from the whole {@code arc_c} rather
     * than {@code arc_c - arc_c_min}. The fix uses {@code can_free = arc_c - arc_c_min} and frees only when it is
     * positive.
     */
    REAP_ABOVE_C_MIN_13794(ZfsEngine.V2_1_1, 13794, "b6ebf270eb", "2.1.6"),
    /**
     * OpenZFS #14120 / PR #14137 (zfs-2.1.7): during warm-up both the anon growth in {@code arc_adapt} and the
     * {@code arc_p} block of {@code arc_get_data_impl} drive {@code arc_p} up to {@code arc_c}. The fix adds the
     * condition {@code arc_p < arc_c >> 1} to both.
     */
    ARC_P_GROWTH_CAP_14137(ZfsEngine.V2_1_1, 14137, "d9de079a4b", "2.1.7"),
    /**
     * OpenZFS PR #14094 (master commit e09fdda977; no release carries it: every 2.1.x keeps the 32-bit product and
     * zfs-2.2.0 removed {@code arc_p}): in {@code arc_adapt}'s MRU-ghost branch {@code bytes * mult} is a 32-bit
     * {@code int} product that wraps, sign-extended into {@code arc_p + bytes * mult}. The fix casts {@code bytes} to
     * {@code uint64_t} there: {@code arc_p + (uint64_t)bytes * mult}, with {@code mult} still the quotient truncated
     * to {@code int}. The MFU-ghost branch is left as it was ({@link #ADAPT_MFU_64BIT_MULTIPLY_OURS}).
     */
    ADAPT_MRU_64BIT_MULTIPLY_14094(ZfsEngine.V2_1_1, 14094, "e09fdda977", null),
    /**
     * This project's fix, no upstream counterpart (observation O1): the same 32-bit {@code bytes * mult} in
     * {@code arc_adapt}'s MFU-ghost branch, where a wrapped negative product drops {@code arc_p} to
     * {@code arc_p_min} on one MFU-ghost hit. Upstream's #14094 cast only the MRU-ghost branch's product; this fix
     * applies the same cast to {@code delta = MIN((uint64_t)bytes * mult, arc_p)}.
     */
    ADAPT_MFU_64BIT_MULTIPLY_OURS(ZfsEngine.V2_1_1, 0, null, null),
    /**
     * This project's fix, no upstream counterpart (observation O2): the {@code else} branch of
     * {@code arc_reduce_target_size} sets {@code arc_c = arc_c_min} and leaves {@code arc_p}, so
     * {@code arc_p > arc_c} is possible. The fix applies the first branch's clamp there too: if
     * {@code arc_p > arc_c}, {@code arc_p = arc_c >> 1}. No OpenZFS release changed this code (2.1.16's is 2.1.1's).
     */
    SHRINK_CLAMPS_ARC_P_OURS(ZfsEngine.V2_1_1, 0, null, null),
    /**
     * OpenZFS #17255 (zfs-2.2.8, commit be72364ad6; fixes #17210), zfs-2.2.0 engine: {@code arc_evict_adj} can move
     * a fraction by almost a quarter of 2^32 in one pass, so one between 0.2 and 0.8 can leave {@code [0, 2^32]}
     * (above, or wrapped below 0) and stay out. The fix needs {@code total >= 32} and scales the hits from a
     * sixteenth of {@code total} to a thirty-second.
     */
    EVICT_ADJ_OVERFLOW_17255(ZfsEngine.V2_2_0, 17255, "be72364ad6", "2.2.8"),
    /**
     * OpenZFS #16546 (zfs-2.2.7, commit 0987892160; closes #16521), zfs-2.2.0 engine: {@code arc_evict}'s MFU
     * metadata step compares the metadata total {@code m} from before the pass with the metadata target, ignoring
     * what the MRU metadata step just evicted, so metadata is evicted twice over and falls below its share. The fix
     * subtracts it: {@code (int64_t)(m - bytes - w)}.
     */
    MFU_META_EVICTION_16546(ZfsEngine.V2_2_0, 16546, "0987892160", "2.2.7"),
    /**
     * OpenZFS #16197 (zfs-2.2.9, commit 67ea51710a), zfs-2.2.0 engine, its arc.c parts: {@code arc_reduce_target_size}
     * reduces from {@code MIN(arc_c, MAX(asize, arc_c_min))}, by no more than lies above {@code arc_c_min}, and asks
     * for eviction only when the size exceeds the new target (2.2.0 returned at {@code arc_c_min} and otherwise
     * always asked); {@code arc_reap_cb} asks for {@code -free} at {@code arc_c_min}; {@code arc_is_overflowing}
     * measures the excess beyond {@code arc_c + zfs_max_recordsize} with thresholds of {@code (arc_c >> shift) / 2}
     * (three times that with the reserve). The Linux shrinker's parts are outside the spec.
     */
    SHRINK_IMPROVEMENTS_16197(ZfsEngine.V2_2_0, 16197, "67ea51710a", "2.2.9");

    private final ZfsEngine engine;
    private final int upstreamPr;
    private final String commit;
    private final String firstRelease;

    QuirkFix(ZfsEngine engine, int upstreamPr, String commit, String firstRelease) {
        this.engine = engine;
        this.upstreamPr = upstreamPr;
        this.commit = commit;
        this.firstRelease = firstRelease;
    }

    /**
     * @param engine an engine
     * @return the fixes of its defects, in declaration order
     */
    public static java.util.Set<QuirkFix> of(ZfsEngine engine) {
        java.util.EnumSet<QuirkFix> fixes = java.util.EnumSet.noneOf(QuirkFix.class);
        for (QuirkFix f : values()) {
            if (f.engine == engine) {
                fixes.add(f);
            }
        }
        return fixes;
    }

    /** @return the engine whose defect this fixes; the other engine rejects it */
    public ZfsEngine engine() {
        return engine;
    }

    /** @return whether this is this project's own fix, with no upstream counterpart */
    public boolean ours() {
        return upstreamPr == 0;
    }

    /** @return the OpenZFS pull request that made the fix; empty for this project's own */
    public Optional<Integer> upstreamPr() {
        return ours() ? Optional.empty() : Optional.of(upstreamPr);
    }

    /** @return the abbreviated OpenZFS commit that carries the fix; empty for this project's own */
    public Optional<String> commit() {
        return Optional.ofNullable(commit);
    }

    /** @return the first OpenZFS release that shipped the fix; empty if none did */
    public Optional<String> firstRelease() {
        return Optional.ofNullable(firstRelease);
    }
}
