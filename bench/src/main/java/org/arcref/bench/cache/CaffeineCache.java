package org.arcref.bench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * Caffeine bounded by entry count (W-TinyLFU). Maintenance runs on the calling threads
 * ({@code executor(Runnable::run)}), so that, like the ARC's, its eviction work is in the measured threads'
 * time or in its own, never in the common pool's idle cores. A read is {@code get(key, loader)}, a write
 * {@code put}.
 */
final class CaffeineCache implements BenchCache {
    private final Cache<Long, Long> cache;

    CaffeineCache(int pages) {
        cache = Caffeine.newBuilder().maximumSize(pages).executor(Runnable::run).build();
    }

    @Override
    public Object read(long key) {
        return cache.get(key, Long::valueOf);
    }

    @Override
    public Object write(long key) {
        Long value = key;
        cache.put(key, value);
        return value;
    }

    @Override
    public void close() {
        cache.invalidateAll();
    }
}
