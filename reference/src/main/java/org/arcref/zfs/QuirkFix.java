package org.arcref.zfs;

/**
 * Known defects of the zfs-2.1.1 ARC, each named by the later fix that removes it. By default none
 * is applied and the spec reproduces 2.1.1; a configuration that lists a fix applies it. The
 * properties in {@code specs/} show each quirk happening without its fix and never with it.
 */
public enum QuirkFix {
    /**
     * OpenZFS #14120 / PR #14137 (zfs-2.1.7): during warm-up both the anon growth in
     * {@code arc_adapt} and the {@code arc_p} block of {@code arc_get_data_impl} drive {@code arc_p}
     * up to {@code arc_c}. The fix adds the condition {@code arc_p < arc_c >> 1} to both.
     */
    ARC_P_GROWTH_CAP_14137,
    /**
     * Observation O1: {@code bytes * mult} in {@code arc_adapt} is a 32-bit {@code int} multiply, and
     * {@code mult} is the ghost-size quotient truncated to {@code int}; a wrapped negative product
     * drops {@code arc_p} to {@code arc_p_min} on one MFU-ghost hit. The fix multiplies in 64 bits.
     */
    ADAPT_64BIT_MULTIPLY_O1,
    /**
     * Observation O2: the {@code else} branch of {@code arc_reduce_target_size} sets
     * {@code arc_c = arc_c_min} and leaves {@code arc_p}, so {@code arc_p > arc_c} is possible. The fix
     * applies the first branch's clamp there too: if {@code arc_p > arc_c}, {@code arc_p = arc_c >> 1}.
     */
    SHRINK_CLAMPS_ARC_P_O2,
    /**
     * OpenZFS #13794 (zfs-2.1.6): {@code arc_reap_cb} computes {@code to_free} from the whole
     * {@code arc_c} rather than {@code arc_c - arc_c_min}. The fix uses {@code can_free = arc_c -
     * arc_c_min} and frees only when it is positive.
     */
    REAP_ABOVE_C_MIN_13794
}
