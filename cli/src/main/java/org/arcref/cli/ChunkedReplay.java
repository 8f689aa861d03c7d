package org.arcref.cli;

import org.arcref.policy.PageCache;
import org.arcref.policy.Replay;

/**
 * {@link Replay#hits} in chunks of {@value #CHUNK} requests with a poll of {@link Interruption} before each, so that
 * a replay of a long trace stops within a few milliseconds of Ctrl-C (a chunk takes about 10–50 ms).
 */
final class ChunkedReplay {

    /** Requests replayed between two polls. */
    static final int CHUNK = 1 << 20;

    private ChunkedReplay() {
    }

    /**
     * @param cache the cache to drive; its state changes
     * @param requests the page requests, in order
     * @return how many of the requests hit
     * @throws Interruption.Interrupted if a signal asked to stop before the last request
     */
    static long hits(PageCache cache, long[] requests) {
        return hits(cache, requests, 0);
    }

    /**
     * @param cache the cache to drive; its state changes
     * @param requests the page requests, in order
     * @param skipped how many of the first requests warm the cache up without being counted, in [0,
     *     {@code requests.length}]
     * @return how many of the requests from index {@code skipped} on hit
     * @throws Interruption.Interrupted if a signal asked to stop before the last request
     */
    static long hits(PageCache cache, long[] requests, int skipped) {
        long hits = 0;
        for (int from = 0; from < requests.length; from += CHUNK) {
            Interruption.check("replaying");
            int to = Math.min(requests.length, from + CHUNK);
            Replay.hits(cache, requests, from, Math.max(from, Math.min(to, skipped)));
            hits += Replay.hits(cache, requests, Math.max(from, Math.min(to, skipped)), to);
        }
        return hits;
    }
}
