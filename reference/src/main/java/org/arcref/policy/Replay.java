package org.arcref.policy;

/** Replays a sequence of page requests through a {@link PageCache}, the loop behind every hit-ratio table. */
public final class Replay {

    private Replay() {
    }

    /**
     * Requests every page in order.
     *
     * @param cache the cache to drive; its state changes
     * @param requests the page requests, in order
     * @return how many of the requests hit
     */
    public static long hits(PageCache cache, long[] requests) {
        long hits = 0;
        for (long page : requests) {
            if (cache.access(page)) {
                hits++;
            }
        }
        return hits;
    }
}
