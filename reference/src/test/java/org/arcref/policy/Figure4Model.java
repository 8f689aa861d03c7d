package org.arcref.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The canonical ARC written a second time, straight from the pseudo-code of Megiddo and Modha (FAST'03,
 * Figure 4), with collections instead of arrays: the model that {@link CanonicalArcFigure4Properties}
 * compares {@link org.arcref.policy.CanonicalArc} with step by step. Each LinkedHashSet iterates from
 * LRU to MRU; re-adding a page makes it the MRU.
 */
final class Figure4Model {

    private final int c;
    private final LinkedHashSet<Long> t1 = new LinkedHashSet<>();
    private final LinkedHashSet<Long> t2 = new LinkedHashSet<>();
    private final LinkedHashSet<Long> b1 = new LinkedHashSet<>();
    private final LinkedHashSet<Long> b2 = new LinkedHashSet<>();
    private double p;

    Figure4Model(int c) {
        this.c = c;
    }

    /** @return whether x was a cache hit */
    boolean request(long x) {
        if (t1.remove(x) || t2.remove(x)) {
            t2.add(x);
            return true;
        }
        boolean inB1 = b1.contains(x);
        if (inB1 || b2.contains(x)) {
            if (inB1) {
                double delta1 = b1.size() >= b2.size() ? 1 : (double) b2.size() / b1.size();
                p = Math.min(p + delta1, c);
            } else {
                double delta2 = b2.size() >= b1.size() ? 1 : (double) b1.size() / b2.size();
                p = Math.max(p - delta2, 0);
            }
            replace(x);
            (inB1 ? b1 : b2).remove(x);
            t2.add(x);
            return false;
        }
        if (t1.size() + b1.size() == c) {
            if (t1.size() < c) {
                removeLru(b1);
                replace(x);
            } else {
                removeLru(t1);
            }
        } else if (t1.size() + t2.size() + b1.size() + b2.size() >= c) {
            if (t1.size() + t2.size() + b1.size() + b2.size() == 2 * c) {
                removeLru(b2);
            }
            replace(x);
        }
        t1.add(x);
        return false;
    }

    private void replace(long x) {
        if (!t1.isEmpty() && (t1.size() > p || (b2.contains(x) && t1.size() == p))) {
            b1.add(removeLru(t1));
        } else {
            b2.add(removeLru(t2));
        }
    }

    private static long removeLru(LinkedHashSet<Long> list) {
        Iterator<Long> lru = list.iterator();
        long page = lru.next();
        lru.remove();
        return page;
    }

    double p() {
        return p;
    }

    /** @return the pages of T1, T2, B1 and B2 (in that order), each from MRU to LRU */
    List<List<Long>> lists() {
        List<List<Long>> lists = new ArrayList<>();
        for (LinkedHashSet<Long> list : List.of(t1, t2, b1, b2)) {
            List<Long> mruFirst = new ArrayList<>(list);
            Collections.reverse(mruFirst);
            lists.add(mruFirst);
        }
        return lists;
    }
}
