package org.arcref.cli;

/**
 * The replay of one workload through one policy at one cache size.
 *
 * @param policy the policy
 * @param pages the cache size in pages
 * @param requests the number of requests replayed
 * @param counted the number of requests whose hits are counted: those after the warm-up
 * @param hits the number of hits among the counted requests
 * @param bestNanos the fastest of the timed repetitions, in nanoseconds
 */
record ReplayResult(Policy policy, int pages, long requests, long counted, long hits, long bestNanos) {

    /** @return hits as a percentage of the counted requests */
    double hitRatioPercent() {
        return counted == 0 ? 0 : 100.0 * hits / counted;
    }

    /** @return requests per second in the fastest repetition */
    double requestsPerSecond() {
        return bestNanos == 0 ? 0 : requests * 1e9 / bestNanos;
    }
}
