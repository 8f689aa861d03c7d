package org.arcref.policy.check;

import java.util.Arrays;
import org.arcref.policy.ArcList;
import org.arcref.policy.CanonicalArc;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;

/**
 * Replays dense page numbers ({@code 0 … keySpace-1}) through a {@link CanonicalArc} and a {@link Dbl}
 * side by side and checks property C1 after every request, exactly and at every step:
 *
 * <ul>
 *   <li>the directory equals DBL(2c)'s: T1∪B1 = L1 and T2∪B2 = L2 as sets (every page on an ARC list is
 *       on the matching DBL list, no page is on two ARC lists or twice on one, and the sizes agree);
 *   <li>|T1|+|T2| ≤ c, |T1|+|B1| ≤ c, |T1|+|T2|+|B1|+|B2| ≤ 2c, 0 ≤ p ≤ c;
 *   <li>once the directory holds c pages, |T1|+|T2| = c.
 * </ul>
 *
 * One step costs O(c) array accesses, with no hashing, so every step of the LIRS traces can be
 * checked. A failure is a {@link PropertyViolation} of {@link Property#C1} that names the rule, the context (seed
 * or trace), the step and the request, with the list sizes as its state.
 *
 * <p>Used by the C1 properties (specs) and by {@code arc explore}.
 */
public final class C1Checker {

    private final CanonicalArc arc;
    private final Dbl dbl;
    private final int capacity;
    private final String context;
    /** lastSeen[page] = the step at which the walk last met the page, to catch duplicates. */
    private final long[] lastSeen;
    private long step;
    private int request;

    /**
     * @param capacity the canonical ARC's capacity c, in pages
     * @param keySpace the pages requested are {@code 0 … keySpace-1}
     * @param context named in failures (a seed or a trace)
     */
    public C1Checker(int capacity, int keySpace, String context) {
        this.arc = new CanonicalArc(capacity);
        this.dbl = new Dbl(capacity, keySpace);
        this.capacity = capacity;
        this.context = context;
        this.lastSeen = new long[keySpace];
        Arrays.fill(lastSeen, -1);
    }

    /**
     * Replays every request and checks C1 after each.
     *
     * @param requests pages in {@code 0 … keySpace-1}
     * @throws PropertyViolation at the first step where C1 fails
     */
    public void replay(int[] requests) {
        for (int r : requests) {
            access(r);
        }
    }

    /**
     * Requests one page of the canonical ARC and of DBL(2c) and checks C1.
     *
     * @param page a page in {@code 0 … keySpace-1}
     * @return whether the canonical ARC hit
     * @throws PropertyViolation if C1 fails after the request
     */
    public boolean access(int page) {
        request = page;
        boolean hit = arc.access(page);
        dbl.access(page);
        checkC1();
        step++;
        return hit;
    }

    private void checkC1() {
        int t1 = arc.size(ArcList.T1);
        int t2 = arc.size(ArcList.T2);
        int b1 = arc.size(ArcList.B1);
        int b2 = arc.size(ArcList.B2);
        double p = arc.p();
        int directory = t1 + t2 + b1 + b2;
        if (t1 + b1 != dbl.l1Size()) {
            fail("|T1|+|B1| = |L1|", t1 + b1 + " vs " + dbl.l1Size());
        }
        if (t2 + b2 != dbl.l2Size()) {
            fail("|T2|+|B2| = |L2|", t2 + b2 + " vs " + dbl.l2Size());
        }
        if (t1 + t2 > capacity) {
            fail("|T1|+|T2| <= c", t1 + t2);
        }
        if (t1 + b1 > capacity) {
            fail("|T1|+|B1| <= c", t1 + b1);
        }
        if (directory > 2 * capacity) {
            fail("|T1|+|T2|+|B1|+|B2| <= 2c", directory);
        }
        if (!(p >= 0 && p <= capacity)) {
            fail("0 <= p <= c", p);
        }
        if (directory >= capacity && t1 + t2 != capacity) {
            fail("directory >= c implies |T1|+|T2| = c", "directory " + directory + ", cache " + (t1 + t2));
        }
        checkList(ArcList.T1, Dbl.L1, t1);
        checkList(ArcList.B1, Dbl.L1, b1);
        checkList(ArcList.T2, Dbl.L2, t2);
        checkList(ArcList.B2, Dbl.L2, b2);
    }

    private void checkList(ArcList list, byte dblSide, int expectedSize) {
        int[] walked = {0};
        arc.forEachPage(list, page -> {
            int dense = (int) page;
            if (dbl.side(dense) != dblSide) {
                fail(list + " is a subset of " + (dblSide == Dbl.L1 ? "L1" : "L2"),
                        "page " + page + " is on DBL side " + dbl.side(dense));
            }
            if (lastSeen[dense] == step) {
                fail("no page is on two lists or twice on one", "page " + page);
            }
            lastSeen[dense] = step;
            walked[0]++;
        });
        if (walked[0] != expectedSize) {
            fail("|" + list + "| counts the pages on " + list, walked[0] + " walked vs " + expectedSize);
        }
    }

    private void fail(String rule, Object value) {
        throw new PropertyViolation(Property.C1, rule + " fails (" + value + ") in " + context + " at step " + step
                + " (request " + request + ")", "c=" + capacity + ", p=" + arc.p() + ", |T1|=" + arc.size(ArcList.T1)
                + " |T2|=" + arc.size(ArcList.T2) + " |B1|=" + arc.size(ArcList.B1) + " |B2|=" + arc.size(ArcList.B2));
    }
}
