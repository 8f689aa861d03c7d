package org.arcref.arc;

import java.util.function.Consumer;

/**
 * One state's eviction list ({@code multilist_t}): a fixed number of {@link Sublist sublists}, each with its own
 * lock, so that threads linking and unlinking headers of different sublists do not contend. A header's sublist
 * is fixed by its key ({@link org.arcref.zfs.ArcArithmetic#sublistOf}). {@link #insertHead} and
 * {@link #remove} take the sublist's lock themselves; eviction locks a sublist through {@link #sublist(int)} and
 * scans it.
 */
final class ConcurrentMultilist {

    private final Sublist[] sublists;

    ConcurrentMultilist(int count) {
        sublists = new Sublist[count];
        for (int i = 0; i < count; i++) {
            sublists[i] = new Sublist();
        }
    }

    int sublistCount() {
        return sublists.length;
    }

    Sublist sublist(int idx) {
        return sublists[idx];
    }

    /** {@code multilist_insert}: puts a header at the head (newest end) of its sublist. */
    void insertHead(ArcHeader<?> h) {
        Sublist s = sublists[h.sublist];
        s.lock();
        try {
            s.insertHead(h);
        } finally {
            s.unlock();
        }
    }

    /** {@code multilist_remove}. */
    void remove(ArcHeader<?> h) {
        Sublist s = sublists[h.sublist];
        s.lock();
        try {
            s.remove(h);
        } finally {
            s.unlock();
        }
    }

    /** @return the nodes on every sublist, headers and eviction's markers alike */
    int nodeCount() {
        int[] count = {0};
        for (Sublist s : sublists) {
            s.lock();
            try {
                s.forEachNewestFirst(n -> count[0]++);
            } finally {
                s.unlock();
            }
        }
        return count[0];
    }

    /** Passes the headers of every sublist, in index order, each head to tail, skipping markers. */
    void forEachHeader(Consumer<ArcHeader<?>> action) {
        for (Sublist s : sublists) {
            s.lock();
            try {
                s.forEachNewestFirst(n -> {
                    if (n instanceof ArcHeader<?> h) {
                        action.accept(h);
                    }
                });
            } finally {
                s.unlock();
            }
        }
    }
}
