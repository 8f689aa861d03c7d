package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** R5: sublist order (head newest, tail oldest) and the eviction marker's walk from the tail toward the head. */
class SublistTest {

    private final Sublist sublist = new Sublist();

    private List<SublistNode> newestFirst() {
        List<SublistNode> nodes = new ArrayList<>();
        sublist.forEachNewestFirst(nodes::add);
        return nodes;
    }

    @Test
    @DisplayName("R5: insertHead puts the newest first; remove unlinks; insertTail puts a marker last")
    void insertRemoveOrder() {
        SublistNode a = new SublistNode();
        SublistNode b = new SublistNode();
        SublistNode c = new SublistNode();
        SublistNode marker = new SublistNode();
        sublist.lock();
        try {
            sublist.insertHead(a);
            sublist.insertHead(b);
            sublist.insertHead(c);
            sublist.remove(b);
            sublist.insertTail(marker);
        } finally {
            sublist.unlock();
        }
        assertEquals(List.of(c, a, marker), newestFirst());
        assertNull(b.newer);
        assertNull(b.older);
    }

    @Test
    @DisplayName("R5: a marker at the tail passes every node from the oldest to the newest, leaving them linked")
    void markerWalksTowardTheHead() {
        SublistNode oldest = new SublistNode();
        SublistNode newest = new SublistNode();
        SublistNode marker = new SublistNode();
        sublist.lock();
        try {
            sublist.insertHead(oldest);
            sublist.insertHead(newest);
            sublist.insertTail(marker);
            assertSame(oldest, sublist.newerThan(marker));
            sublist.moveForward(marker);
            assertEquals(List.of(newest, marker, oldest), newestFirst());
            assertSame(newest, sublist.newerThan(marker));
            sublist.moveForward(marker);
            assertNull(sublist.newerThan(marker), "the marker reached the head");
            assertEquals(List.of(marker, newest, oldest), newestFirst());
        } finally {
            sublist.unlock();
        }
    }
}
