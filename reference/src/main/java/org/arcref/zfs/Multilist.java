package org.arcref.zfs;

import java.util.List;

/**
 * One state's eviction list ({@code multilist_t}): sublists, each a doubly linked list with the
 * newest header at the head ({@code multilist_insert} inserts there) and the oldest at the tail,
 * where eviction starts. A header's sublist is fixed by its key.
 */
final class Multilist {

    private final ListNode[] heads;
    private final ListNode[] tails;

    Multilist(int sublists) {
        heads = new ListNode[sublists];
        tails = new ListNode[sublists];
    }

    int sublists() {
        return heads.length;
    }

    /** {@code multilist_insert}: puts a header at the head of its sublist. */
    void insertHead(Header h) {
        insertHead(h.sublist, h);
    }

    /** {@code multilist_sublist_insert_tail}: puts an eviction marker at the tail of a sublist. */
    void insertTail(int idx, ListNode node) {
        node.newer = tails[idx];
        node.older = null;
        if (tails[idx] == null) {
            heads[idx] = node;
        } else {
            tails[idx].older = node;
        }
        tails[idx] = node;
        node.linked = true;
    }

    /** {@code multilist_remove} / {@code multilist_sublist_remove}. */
    void remove(int idx, ListNode node) {
        if (node.newer == null) {
            heads[idx] = node.older;
        } else {
            node.newer.older = node.older;
        }
        if (node.older == null) {
            tails[idx] = node.newer;
        } else {
            node.older.newer = node.newer;
        }
        node.newer = null;
        node.older = null;
        node.linked = false;
    }

    /**
     * {@code multilist_sublist_move_forward}: moves a marker one place toward the head, past its
     * newer neighbour, which stays linked.
     */
    void moveForward(int idx, ListNode marker) {
        ListNode passed = marker.newer;
        remove(idx, marker);
        marker.older = passed;
        marker.newer = passed.newer;
        if (passed.newer == null) {
            heads[idx] = marker;
        } else {
            passed.newer.older = marker;
        }
        passed.newer = marker;
        marker.linked = true;
    }

    /** Appends the headers of every sublist, head (newest) to tail (oldest), skipping markers. */
    void collect(List<HeaderSnapshot> out) {
        for (ListNode head : heads) {
            for (ListNode n = head; n != null; n = n.older) {
                if (n instanceof Header h) {
                    out.add(h.snapshot());
                }
            }
        }
    }

    private void insertHead(int idx, ListNode node) {
        node.older = heads[idx];
        node.newer = null;
        if (heads[idx] == null) {
            tails[idx] = node;
        } else {
            heads[idx].newer = node;
        }
        heads[idx] = node;
        node.linked = true;
    }
}
