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
        return hits(cache, requests, 0);
    }

    /**
     * Requests every page in order, counting the hits only from a given request on: the requests before it warm
     * the cache up (they fill it and shape its state) but are not counted.
     *
     * @param cache the cache to drive; its state changes
     * @param requests the page requests, in order
     * @param from the index of the first request counted, in [0, requests.length]
     * @return how many of the requests from index {@code from} on hit
     * @throws IllegalArgumentException naming the rule and the value if {@code from} is out of range
     */
    public static long hits(PageCache cache, long[] requests, int from) {
        if (from < 0 || from > requests.length) {
            throw new IllegalArgumentException("from must be in [0, " + requests.length + "], was " + from);
        }
        for (int i = 0; i < from; i++) {
            cache.access(requests[i]);
        }
        long hits = 0;
        for (int i = from; i < requests.length; i++) {
            if (cache.access(requests[i])) {
                hits++;
            }
        }
        return hits;
    }
}
