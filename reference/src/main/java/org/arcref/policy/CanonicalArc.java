package org.arcref.policy;

import java.util.function.LongConsumer;

/**
 * The canonical Adaptive Replacement Cache of Megiddo and Modha ("ARC: A Self-Tuning, Low Overhead
 * Replacement Cache", FAST'03, Figure 4) over unit-sized pages, with a real-valued target {@code p}:
 * the baseline the ZFS ARC spec is compared with, not the ZFS variant.
 *
 * <p>Contract: at most {@link #capacity() c} pages are resident; the directory (resident pages and
 * ghosts) holds at most 2c pages. After every {@link #access} the state satisfies property C1 of the
 * project's design: the directory equals that of DBL(2c) (T1∪B1 = L1, T2∪B2 = L2 as sets),
 * |T1|+|T2| ≤ c, |T1|+|B1| ≤ c, |T1|+|T2|+|B1|+|B2| ≤ 2c, 0 ≤ p ≤ c, and once the directory holds c
 * pages the cache is full. ARC does <em>not</em> always hit at least as often as LRU.
 *
 * <p>The read-only view ({@link #size}, {@link #p}, {@link #listOf}, {@link #forEachPage}) exists so
 * that tests can check C1; it does not change the state or the recency order. Not thread-safe: the
 * caller serialises every call. Runs in O(1) per request and allocates nothing after construction.
 */
public final class CanonicalArc implements PageCache {

    /*
     * Implementation overview (the paper's Figure 4; case names are the paper's).
     *
     * The directory holds four LRU lists. T1 and T2 are the resident pages: T1 those seen once "recently",
     * T2 those seen at least twice. B1 and B2 are ghosts, the pages most recently evicted from T1 and
     * T2. p is the adaptive target size of T1: a ghost hit in B1 says T1 was too small and grows p, a
     * ghost hit in B2 shrinks it. For a request x:
     *
     *   Case I   x in T1 or T2: a hit. Move x to the MRU end of T2.
     *   Case II  x in B1: p = min(c, p + max(|B2|/|B1|, 1)); REPLACE(x, p); move x to the MRU of T2.
     *   Case III x in B2: p = max(0, p - max(|B1|/|B2|, 1)); REPLACE(x, p); move x to the MRU of T2.
     *   Case IV  x not in the directory:
     *     A  |T1|+|B1| = c: if |T1| < c, delete the LRU of B1 and REPLACE(x, p);
     *                       else (B1 is empty) delete the LRU of T1 from the cache and directory.
     *     B  |T1|+|B1| < c: if |T1|+|T2|+|B1|+|B2| >= c, first delete the LRU of B2 if the total is
     *                       2c, then REPLACE(x, p).
     *     Put x at the MRU end of T1.
     *
     *   REPLACE(x, p): if T1 is not empty and (|T1| > p or (x in B2 and |T1| = p)), move the LRU of T1
     *   to the MRU of B1; otherwise move the LRU of T2 to the MRU of B2.
     *
     * The ratios are real divisions and p is a double, as in the paper, so |T1| = p is an exact
     * comparison of an integer with a real. REPLACE is only reached with a full cache, where the list it
     * takes from is never empty (the paper's invariants, checked by the C1 tests).
     *
     * Storage is one PageDirectory of 2c slots with four lists numbered by ArcList ordinals.
     */

    private static final int T1 = ArcList.T1.ordinal();
    private static final int T2 = ArcList.T2.ordinal();
    private static final int B1 = ArcList.B1.ordinal();
    private static final int B2 = ArcList.B2.ordinal();
    private static final ArcList[] LISTS = ArcList.values();

    /** The largest capacity a canonical ARC can be created with (its directory holds 2c pages). */
    public static final int MAX_CAPACITY = PageDirectory.MAX_SLOTS / 2;

    private final int capacity;
    private final PageDirectory directory;
    private double p;

    /**
     * Creates an empty cache with {@code p = 0}.
     *
     * @param capacity c, the number of resident pages, in [1, {@value #MAX_CAPACITY}]
     * @throws IllegalArgumentException if {@code capacity} is out of range
     */
    public CanonicalArc(int capacity) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "capacity must be in [1, " + MAX_CAPACITY + "], was " + capacity);
        }
        this.capacity = capacity;
        this.directory = new PageDirectory(2 * capacity, ArcList.NONE.ordinal());
    }

    @Override
    public boolean access(long page) {
        int node = directory.find(page);
        if (node == PageDirectory.NO_NODE) {
            missOutsideDirectory(page);
            return false;
        }
        int list = directory.list(node);
        if (list == T1 || list == T2) {
            directory.moveToMru(node, T2);
            return true;
        }
        if (list == B1) {
            p = Math.min(capacity, p + Math.max((double) directory.size(B2) / directory.size(B1), 1.0));
        } else {
            p = Math.max(0.0, p - Math.max((double) directory.size(B1) / directory.size(B2), 1.0));
        }
        replace(list == B2);
        directory.moveToMru(node, T2);
        return false;
    }

    /** Case IV of Figure 4: {@code page} is in none of the four lists. */
    private void missOutsideDirectory(long page) {
        int t1 = directory.size(T1);
        int l1 = t1 + directory.size(B1);
        if (l1 == capacity) {
            if (t1 < capacity) {
                directory.remove(directory.lru(B1));
                replace(false);
            } else {
                directory.remove(directory.lru(T1));
            }
        } else {
            int total = l1 + directory.size(T2) + directory.size(B2);
            if (total >= capacity) {
                if (total == 2 * capacity) {
                    directory.remove(directory.lru(B2));
                }
                replace(false);
            }
        }
        directory.add(page, T1);
    }

    /** REPLACE(x, p) of Figure 4; {@code requestInB2} is the condition "x ∈ B2". */
    private void replace(boolean requestInB2) {
        int t1 = directory.size(T1);
        if (t1 > 0 && (t1 > p || (requestInB2 && t1 == p))) {
            directory.moveToMru(directory.lru(T1), B1);
        } else {
            directory.moveToMru(directory.lru(T2), B2);
        }
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return "canonical";
    }

    /** @return p, the current target size of T1, in [0, c] */
    public double p() {
        return p;
    }

    /**
     * @param list one of T1, T2, B1, B2
     * @return the number of pages on that list
     * @throws IllegalArgumentException if {@code list} is {@link ArcList#NONE}
     */
    public int size(ArcList list) {
        return directory.size(listNumber(list));
    }

    /**
     * @param page any page number
     * @return the list holding {@code page}, or {@link ArcList#NONE} if it is not in the directory
     */
    public ArcList listOf(long page) {
        int node = directory.find(page);
        return node == PageDirectory.NO_NODE ? ArcList.NONE : LISTS[directory.list(node)];
    }

    /**
     * Passes every page of a list to {@code action}, from MRU to LRU, without changing any state. The
     * action must not call {@link #access}.
     *
     * @param list one of T1, T2, B1, B2
     * @param action receives each page
     * @throws IllegalArgumentException if {@code list} is {@link ArcList#NONE}
     */
    public void forEachPage(ArcList list, LongConsumer action) {
        directory.forEach(listNumber(list), action);
    }

    private static int listNumber(ArcList list) {
        if (list == ArcList.NONE) {
            throw new IllegalArgumentException("list must be one of T1, T2, B1, B2, was NONE");
        }
        return list.ordinal();
    }
}
