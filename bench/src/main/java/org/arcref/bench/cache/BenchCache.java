package org.arcref.bench.cache;

/**
 * The face every cache in experiment E3 shows the benchmark: a read that loads and caches the key's value on a
 * miss, and a write that replaces the key's value. Implementations are thread-safe.
 */
interface BenchCache extends AutoCloseable {

    /** Reads {@code key}, loading and caching it on a miss; returns its value. */
    Object read(long key);

    /** Replaces {@code key}'s value (caching it); returns something derived from it, for the blackhole. */
    Object write(long key);

    @Override
    void close();
}
