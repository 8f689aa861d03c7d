package org.arcref.policy;

import java.util.function.LongConsumer;

/**
 * A fixed number of page slots, each on one of a fixed number of LRU lists, with a page-number
 * index: the bookkeeping that list-based replacement policies (LRU, the canonical ARC) share.
 *
 * <p>Lists are numbered {@code 0 .. lists-1}. Every page in the directory is on exactly one list; each
 * list is ordered from most recently used (MRU) to least recently used (LRU). A page is named by its
 * <em>node</em>, an {@code int} handle valid from {@link #add} until {@link #remove}. Every operation
 * is O(1) (expected, for {@link #find}) and none allocates.
 *
 * <p>Not thread-safe: the caller serialises every call. Handles and list numbers are trusted on the
 * hot path; passing a stale handle or a list out of range is a bug in the caller and may corrupt the
 * directory or throw {@link ArrayIndexOutOfBoundsException}.
 */
public final class PageDirectory {

    /*
     * Implementation overview.
     *
     * Nodes 0 .. slots-1 hold pages; nodes slots .. slots+lists-1 are one sentinel per list. Every list
     * is a circular, intrusive, doubly linked list through next[] and prev[]: next[sentinel] is the MRU
     * node and prev[sentinel] the LRU node, and an empty list has its sentinel pointing at itself, so
     * linking and unlinking need no special cases. Free nodes are chained through next[] from freeHead.
     * listOf[node] names the list a node is on, or FREE. The PageIndex maps a page to its node.
     */

    /** The node {@link #find} and {@link #lru} return when there is none. */
    public static final int NO_NODE = -1;

    /** The most slots a directory can be created with. */
    public static final int MAX_SLOTS = PageIndex.MAX_ENTRIES;

    private static final int FREE = -1;

    private final PageIndex index;
    private final long[] pages;
    private final int[] next;
    private final int[] prev;
    private final int[] listOf;
    private final int[] sizes;
    private final int slots;
    private int freeHead;

    /**
     * @param slots the most pages the directory holds at once, in [1, {@value #MAX_SLOTS}]
     * @param lists the number of lists, {@code >= 1}
     * @throws IllegalArgumentException if an argument is out of range
     */
    public PageDirectory(int slots, int lists) {
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots must be in [1, " + MAX_SLOTS + "], was " + slots);
        }
        if (lists < 1) {
            throw new IllegalArgumentException("lists must be >= 1, was " + lists);
        }
        this.index = new PageIndex(slots);
        this.pages = new long[slots];
        this.next = new int[slots + lists];
        this.prev = new int[slots + lists];
        this.listOf = new int[slots];
        this.sizes = new int[lists];
        this.slots = slots;
        for (int node = 0; node < slots; node++) {
            next[node] = node + 1 < slots ? node + 1 : NO_NODE;
            listOf[node] = FREE;
        }
        for (int sentinel = slots; sentinel < slots + lists; sentinel++) {
            next[sentinel] = sentinel;
            prev[sentinel] = sentinel;
        }
        this.freeHead = 0;
    }

    /**
     * @param page any page number
     * @return the node holding {@code page}, or {@link #NO_NODE}
     */
    public int find(long page) {
        return index.get(page);
    }

    /**
     * @param node a node in the directory
     * @return the list the node is on
     */
    public int list(int node) {
        return listOf[node];
    }

    /**
     * @param node a node in the directory
     * @return the page the node holds
     */
    public long page(int node) {
        return pages[node];
    }

    /**
     * @param list a list number
     * @return the number of pages on the list
     */
    public int size(int list) {
        return sizes[list];
    }

    /**
     * @param list a list number
     * @return the least recently used node of the list, or {@link #NO_NODE} if the list is empty
     */
    public int lru(int list) {
        int node = prev[slots + list];
        return node == slots + list ? NO_NODE : node;
    }

    /**
     * Adds a page that is not in the directory at the MRU end of a list.
     *
     * @param page a page number not in the directory
     * @param list the list to put it on
     * @return the page's node
     * @throws IllegalStateException if the directory is full or already holds the page
     */
    public int add(long page, int list) {
        int node = freeHead;
        if (node == NO_NODE) {
            throw new IllegalStateException("directory is full: all " + slots + " slots hold pages");
        }
        index.put(page, node);
        freeHead = next[node];
        pages[node] = page;
        linkAtMru(node, list);
        return node;
    }

    /**
     * Moves a node to the MRU end of a list, which may be the list it is on.
     *
     * @param node a node in the directory
     * @param list the list to put it on
     */
    public void moveToMru(int node, int list) {
        unlink(node);
        linkAtMru(node, list);
    }

    /**
     * Removes a node and its page from the directory; the handle becomes invalid.
     *
     * @param node a node in the directory
     */
    public void remove(int node) {
        unlink(node);
        index.remove(pages[node]);
        listOf[node] = FREE;
        next[node] = freeHead;
        freeHead = node;
    }

    /**
     * Passes every page of a list to {@code action}, from MRU to LRU. The action must not change the
     * directory.
     *
     * @param list a list number
     * @param action receives each page
     */
    public void forEach(int list, LongConsumer action) {
        int sentinel = slots + list;
        for (int node = next[sentinel]; node != sentinel; node = next[node]) {
            action.accept(pages[node]);
        }
    }

    private void unlink(int node) {
        int before = prev[node];
        int after = next[node];
        next[before] = after;
        prev[after] = before;
        sizes[listOf[node]]--;
    }

    private void linkAtMru(int node, int list) {
        int sentinel = slots + list;
        int oldMru = next[sentinel];
        next[node] = oldMru;
        prev[node] = sentinel;
        prev[oldMru] = node;
        next[sentinel] = node;
        listOf[node] = list;
        sizes[list]++;
    }
}
