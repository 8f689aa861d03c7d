package org.arcref.policy;

/**
 * Least-recently-used replacement over unit-sized pages: a hit moves the page to the MRU end; a miss
 * with a full cache evicts the LRU page. The simplest baseline for hit ratios.
 *
 * <p>Not thread-safe: the caller serialises every call. O(1) per request; allocates nothing after
 * construction.
 */
public final class Lru implements PageCache {

    private static final int RESIDENT = 0;

    private final int capacity;
    private final PageDirectory directory;

    /**
     * @param capacity the number of resident pages, in [1, {@value PageDirectory#MAX_SLOTS}]
     * @throws IllegalArgumentException if {@code capacity} is out of range
     */
    public Lru(int capacity) {
        if (capacity < 1 || capacity > PageDirectory.MAX_SLOTS) {
            throw new IllegalArgumentException(
                    "capacity must be in [1, " + PageDirectory.MAX_SLOTS + "], was " + capacity);
        }
        this.capacity = capacity;
        this.directory = new PageDirectory(capacity, 1);
    }

    @Override
    public boolean access(long page) {
        int node = directory.find(page);
        if (node != PageDirectory.NO_NODE) {
            directory.moveToMru(node, RESIDENT);
            return true;
        }
        if (directory.size(RESIDENT) == capacity) {
            directory.remove(directory.lru(RESIDENT));
        }
        directory.add(page, RESIDENT);
        return false;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return "lru";
    }
}
