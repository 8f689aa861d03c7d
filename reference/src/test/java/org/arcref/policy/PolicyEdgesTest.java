package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The smallest caches the baselines accept (capacity 1 is legal), what they report about themselves, and the node
 * handles of {@link PageDirectory}.
 */
class PolicyEdgesTest {

    @Test
    @DisplayName("a one-page canonical ARC holds exactly the last page")
    void oneCanonicalPage() {
        CanonicalArc arc = new CanonicalArc(1);
        assertEquals(1, arc.capacity());
        assertEquals("canonical", arc.name());
        assertFalse(arc.access(1));
        assertTrue(arc.access(1));
        assertFalse(arc.access(2));
        assertFalse(arc.access(1), "page 1 was replaced by page 2");
    }

    @Test
    @DisplayName("a one-page LRU holds exactly the last page")
    void oneLruPage() {
        Lru lru = new Lru(1);
        assertEquals(1, lru.capacity());
        assertEquals("lru", lru.name());
        assertFalse(lru.access(7));
        assertTrue(lru.access(7));
        assertFalse(lru.access(8));
        assertFalse(lru.access(7), "page 7 was replaced by page 8");
    }

    @Test
    @DisplayName("add returns the node that holds the page; find and page agree with it")
    void addReturnsTheNodeOfThePage() {
        PageDirectory directory = new PageDirectory(2, 1);
        int first = directory.add(42, 0);
        int second = directory.add(43, 0);
        assertNotEquals(first, second);
        assertEquals(first, directory.find(42));
        assertEquals(second, directory.find(43));
        assertEquals(42, directory.page(first));
        assertEquals(43, directory.page(second));
    }
}
