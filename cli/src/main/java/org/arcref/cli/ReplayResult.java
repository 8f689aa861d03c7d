package org.arcref.cli;

/**
 * The replay of one workload through one policy at one cache size.
 *
 * @param policy the policy
 * @param pages the cache size in pages
 * @param requests the number of requests replayed
 * @param hits the number of hits
 * @param bestNanos the fastest of the timed repetitions, in nanoseconds
 */
record ReplayResult(Policy policy, int pages, long requests, long hits, long bestNanos) {

    /** @return hits as a percentage of requests */
    double hitRatioPercent() {
        return requests == 0 ? 0 : 100.0 * hits / requests;
    }

    /** @return requests per second in the fastest repetition */
    double requestsPerSecond() {
        return bestNanos == 0 ? 0 : requests * 1e9 / bestNanos;
    }
}
