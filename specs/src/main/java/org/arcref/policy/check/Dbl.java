package org.arcref.policy.check;

import java.util.Iterator;
import java.util.LinkedHashSet;

/**
 * DBL(2c) of Megiddo and Modha (FAST'03, Figure 2), written independently of the code under test as
 * the model C1 compares the canonical ARC's directory with. Two LRU lists of pages {@code 0 …
 * keySpace-1}: L1 holds pages seen exactly once recently, L2 pages seen at least twice recently.
 *
 * <p>On a request for x: if x is in L1 ∪ L2 it moves to the MRU end of L2. Otherwise, if |L1| = c the
 * LRU page of L1 is deleted, else if |L1| + |L2| = 2c the LRU page of L2 is deleted; then x goes to
 * the MRU end of L1.
 */
final class Dbl {

    static final byte NONE = 0;
    static final byte L1 = 1;
    static final byte L2 = 2;

    private final int capacity;
    /** Iteration order is insertion order, LRU first: re-inserting a page makes it the MRU. */
    private final LinkedHashSet<Integer> l1 = new LinkedHashSet<>();
    private final LinkedHashSet<Integer> l2 = new LinkedHashSet<>();
    private final byte[] side;

    Dbl(int capacity, int keySpace) {
        this.capacity = capacity;
        this.side = new byte[keySpace];
    }

    void access(int page) {
        if (side[page] != NONE) {
            (side[page] == L1 ? l1 : l2).remove(page);
            l2.add(page);
            side[page] = L2;
            return;
        }
        if (l1.size() == capacity) {
            deleteLru(l1);
        } else if (l1.size() + l2.size() == 2 * capacity) {
            deleteLru(l2);
        }
        l1.add(page);
        side[page] = L1;
    }

    private void deleteLru(LinkedHashSet<Integer> list) {
        Iterator<Integer> lru = list.iterator();
        side[lru.next()] = NONE;
        lru.remove();
    }

    /** @return {@link #L1}, {@link #L2} or {@link #NONE} */
    byte side(int page) {
        return side[page];
    }

    int l1Size() {
        return l1.size();
    }

    int l2Size() {
        return l2.size();
    }
}
