package org.arcref.policy;

/**
 * A cache of equal-sized pages driven one request at a time, the common face of every policy that a
 * block trace is replayed through (the ZFS ARC spec in page mode, the canonical ARC of Megiddo and
 * Modha, LRU).
 *
 * <p>Implementations are single-threaded: the caller serialises every call. A request either hits
 * (the page was resident) or misses (the page is now resident, possibly after evicting others).
 */
public interface PageCache {

    /**
     * Requests one page.
     *
     * @param page the page identity; any value, including negative ones
     * @return {@code true} if the page was resident before the request
     */
    boolean access(long page);

    /** @return the capacity in pages this cache was created with */
    int capacity();

    /** @return a short name for tables and JSON, such as {@code lru} */
    String name();
}
