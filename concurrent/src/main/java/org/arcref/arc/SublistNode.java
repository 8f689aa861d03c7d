package org.arcref.arc;

/**
 * A link of a {@link Sublist}: a buffer header or an eviction marker ({@code multilist_node_t}; ZFS tells
 * markers by {@code b_spa == 0}, here a plain {@code SublistNode} is a marker). Its links are guarded by the
 * lock of the sublist it is on.
 */
class SublistNode {
    /** The neighbour toward the head (newer), or the sublist's sentinel. */
    SublistNode newer;
    /** The neighbour toward the tail (older), or the sublist's sentinel. */
    SublistNode older;
}
