package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A worked example of Figure 4 with c = 2, small enough to follow by hand, through cases I–IV. */
class CanonicalArcExampleTest {

    private final CanonicalArc arc = new CanonicalArc(2);

    private void assertLists(String t1, String t2, String b1, String b2) {
        assertEquals(List.of(t1, t2, b1, b2),
                List.of(pages(ArcList.T1), pages(ArcList.T2), pages(ArcList.B1), pages(ArcList.B2)),
                "T1, T2, B1, B2 from MRU to LRU");
    }

    private String pages(ArcList list) {
        List<Long> pages = new ArrayList<>();
        arc.forEachPage(list, pages::add);
        return pages.toString();
    }

    @Test
    void ghostHitsMovePInBothDirections() {
        for (long page : new long[] {1, 2}) {
            assertFalse(arc.access(page), "case IV-B, cache not yet full: " + page);
        }
        assertTrue(arc.access(1), "case I");
        assertTrue(arc.access(2), "case I");
        assertLists("[]", "[2, 1]", "[]", "[]");

        assertFalse(arc.access(3), "case IV-B: REPLACE with an empty T1 demotes T2's LRU");
        assertLists("[3]", "[2]", "[]", "[1]");
        assertFalse(arc.access(4), "case IV-B: REPLACE with |T1| = 1 > p = 0 demotes T1's LRU");
        assertLists("[4]", "[2]", "[3]", "[1]");

        assertFalse(arc.access(3), "case II: ghost hit in B1");
        assertEquals(1.0, arc.p(), 0.0, "p = min(c, 0 + max(|B2|/|B1| = 1/1, 1))");
        assertLists("[4]", "[3]", "[]", "[2, 1]");

        assertFalse(arc.access(1), "case III: ghost hit in B2");
        assertEquals(0.0, arc.p(), 0.0, "p = max(0, 1 - max(|B1|/|B2| = 0/2, 1))");
        assertLists("[]", "[1, 3]", "[4]", "[2]");
        assertEquals(ArcList.B1, arc.listOf(4));
        assertEquals(ArcList.NONE, arc.listOf(5));
    }
}
