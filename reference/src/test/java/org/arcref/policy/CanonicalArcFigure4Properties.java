package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The canonical ARC follows Figure 4 of the paper exactly: after every request it agrees with
 * {@link Figure4Model}, written independently from the pseudo-code, on the hit, on the real value of p
 * (compared exactly, so integer division or a lost tie rule shows) and on the contents and order of
 * T1, T2, B1 and B2; and {@link CanonicalArc#listOf} names the list of every key.
 */
class CanonicalArcFigure4Properties {

    private static final ArcList[] LISTS = {ArcList.T1, ArcList.T2, ArcList.B1, ArcList.B2};
    private static final int MIN_KEY = 0;
    private static final int MAX_KEY = 20;

    @Property(tries = 2000)
    @Label("Figure 4: hits, real-valued p and all four lists agree with the paper's pseudo-code at every step")
    void followsFigure4AtEveryStep(@ForAll @IntRange(min = 1, max = 8) int capacity,
            @ForAll @Size(max = 300) List<@IntRange(min = MIN_KEY, max = MAX_KEY) Integer> requests) {
        CanonicalArc arc = new CanonicalArc(capacity);
        Figure4Model model = new Figure4Model(capacity);
        for (int step = 0; step < requests.size(); step++) {
            long page = requests.get(step);
            String where = "step " + step + " (request " + page + "), c=" + capacity;
            assertEquals(model.request(page), arc.access(page), "hit at " + where);
            assertEquals(model.p(), arc.p(), 0.0, "p at " + where);
            List<List<Long>> expected = model.lists();
            assertEquals(expected, lists(arc), "T1, T2, B1, B2 (MRU first) at " + where);
            for (int key = MIN_KEY; key <= MAX_KEY; key++) {
                assertEquals(listHolding(expected, key), arc.listOf(key), "listOf(" + key + ") at " + where);
            }
        }
    }

    private static ArcList listHolding(List<List<Long>> lists, long page) {
        for (int i = 0; i < LISTS.length; i++) {
            if (lists.get(i).contains(page)) {
                return LISTS[i];
            }
        }
        return ArcList.NONE;
    }

    private static List<List<Long>> lists(CanonicalArc arc) {
        List<List<Long>> lists = new ArrayList<>();
        for (ArcList list : LISTS) {
            List<Long> pages = new ArrayList<>();
            arc.forEachPage(list, pages::add);
            lists.add(pages);
        }
        return lists;
    }
}
