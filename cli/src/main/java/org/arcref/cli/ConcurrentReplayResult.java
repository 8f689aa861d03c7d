package org.arcref.cli;

import org.arcref.arc.WaitTimes;

/**
 * The concurrent replay of one workload at one cache size.
 *
 * @param pages the cache size in pages
 * @param threads the replaying threads
 * @param requests the requests replayed
 * @param hits the hits
 * @param nanos the wall-clock time of the replay
 * @param evictionWaits how long reads waited for eviction
 * @param maxAggsumGap the largest sampled {@code upperBound - lowerBound} of {@code arc_size}, in bytes
 */
record ConcurrentReplayResult(int pages, int threads, long requests, long hits, long nanos, WaitTimes evictionWaits,
        long maxAggsumGap) {

    /** @return hits as a percentage of requests */
    double hitRatioPercent() {
        return requests == 0 ? 0 : 100.0 * hits / requests;
    }

    /** @return requests per second, all threads together */
    double requestsPerSecond() {
        return nanos == 0 ? 0 : requests * 1e9 / nanos;
    }
}
