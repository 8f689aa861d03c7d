package org.arcref.arc;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * One sublist of a {@link ConcurrentMultilist} ({@code multilist_sublist_t}): a doubly linked list, newest at the
 * head, oldest at the tail, guarded by its own lock ({@code mls_lock}). Every method requires the lock to be held
 * by the caller ({@link #lock()}); the lock is an {@link AdaptiveMutex}, reentrant so that eviction, which holds it while scanning, can move
 * the header it evicts off the same sublist.
 */
final class Sublist {
    /*
     * A circular list through one sentinel: sentinel.older is the head (newest), sentinel.newer the tail (oldest).
     * A node is linked exactly when its links are non-null.
     */
    private final ReentrantLock lock = new AdaptiveMutex();
    private final SublistNode sentinel = new SublistNode();

    Sublist() {
        sentinel.newer = sentinel;
        sentinel.older = sentinel;
    }

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    /** {@code multilist_sublist_insert_head}. */
    void insertHead(SublistNode node) {
        link(node, sentinel, sentinel.older);
    }

    /** {@code multilist_sublist_insert_tail}: where eviction markers start. */
    void insertTail(SublistNode node) {
        link(node, sentinel.newer, sentinel);
    }

    /** {@code multilist_sublist_remove}. */
    void remove(SublistNode node) {
        node.newer.older = node.older;
        node.older.newer = node.newer;
        node.newer = null;
        node.older = null;
    }

    /** @return the node just newer than {@code node}, or null if {@code node} is the head */
    SublistNode newerThan(SublistNode node) {
        return node.newer == sentinel ? null : node.newer;
    }

    /**
     * {@code multilist_sublist_move_forward}: moves {@code marker} one place toward the head, past its newer
     * neighbour, which stays linked.
     */
    void moveForward(SublistNode marker) {
        SublistNode passed = marker.newer;
        remove(marker);
        link(marker, passed.newer, passed);
    }

    /** Passes every node from head (newest) to tail (oldest) to {@code action}. */
    void forEachNewestFirst(Consumer<SublistNode> action) {
        for (SublistNode n = sentinel.older; n != sentinel; n = n.older) {
            action.accept(n);
        }
    }

    private static void link(SublistNode node, SublistNode newer, SublistNode older) {
        node.newer = newer;
        node.older = older;
        newer.older = node;
        older.newer = node;
    }
}
