package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** B1 for the baselines and their tables: bad arguments are rejected naming the argument, the rule and the value. */
class PolicyArgumentsTest {

    private static void rejects(String message, Executable call) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, call).getMessage());
    }

    @Test
    void capacitiesOutOfRangeAreRejected() {
        rejects("capacity must be in [1, 268435456], was 0", () -> new CanonicalArc(0));
        rejects("capacity must be in [1, 268435456], was 268435457", () -> new CanonicalArc(268_435_457));
        rejects("capacity must be in [1, 536870912], was -1", () -> new Lru(-1));
        rejects("maxEntries must be in [1, 536870912], was 0", () -> new PageIndex(0));
        rejects("slots must be in [1, 536870912], was 0", () -> new PageDirectory(0, 1));
        rejects("lists must be >= 1, was 0", () -> new PageDirectory(1, 0));
    }

    @Test
    void arcViewRejectsTheNoneList() {
        CanonicalArc arc = new CanonicalArc(4);
        rejects("list must be one of T1, T2, B1, B2, was NONE", () -> arc.size(ArcList.NONE));
        rejects("list must be one of T1, T2, B1, B2, was NONE", () -> arc.forEachPage(ArcList.NONE, page -> { }));
    }

    @Test
    void indexRejectsNegativeValuesDuplicatesAndOverflow() {
        PageIndex index = new PageIndex(1);
        rejects("value must be >= 0, was -1", () -> index.put(7, -1));
        index.put(7, 0);
        assertEquals("index is full: it holds maxEntries=1 keys",
                assertThrows(IllegalStateException.class, () -> index.put(8, 1)).getMessage());
        assertEquals("key 9 is not in the index",
                assertThrows(IllegalStateException.class, () -> index.remove(9)).getMessage());
    }

    @Test
    void directoryRejectsAPageBeyondItsSlots() {
        PageDirectory directory = new PageDirectory(2, 1);
        directory.add(1, 0);
        directory.add(2, 0);
        assertEquals("directory is full: all 2 slots hold pages",
                assertThrows(IllegalStateException.class, () -> directory.add(3, 0)).getMessage());
    }
}
