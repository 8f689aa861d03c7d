package org.arcref.policy;

import java.util.Objects;

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
        return hits(cache, requests, 0, requests.length);
    }

    /**
     * Requests the pages {@code requests[from]} to {@code requests[to - 1]} in order.
     *
     * @param cache the cache to drive; its state changes
     * @param requests the page requests, in order
     * @param from the first request, in [0, {@code to}]
     * @param to one past the last request, in [{@code from}, {@code requests.length}]
     * @return how many of those requests hit
     * @throws IndexOutOfBoundsException if the range is not within {@code requests}
     */
    public static long hits(PageCache cache, long[] requests, int from, int to) {
        Objects.checkFromToIndex(from, to, requests.length);
        long hits = 0;
        for (int i = from; i < to; i++) {
            if (cache.access(requests[i])) {
                hits++;
            }
        }
        return hits;
    }
}
