package org.arcref.zfs;

/**
 * A link in a sublist ({@code b_arc_node}). A bare node is an eviction marker (ZFS: a header
 * with {@code b_spa == 0}); {@link Header} extends it for real headers.
 */
class ListNode {
    /** The neighbour toward the head (newer), or {@code null} at the head. */
    ListNode newer;
    /** The neighbour toward the tail (older), or {@code null} at the tail. */
    ListNode older;
    /** Whether the node is on a sublist ({@code multilist_link_active}). */
    boolean linked;
}
