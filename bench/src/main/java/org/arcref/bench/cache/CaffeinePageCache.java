package org.arcref.bench.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.arcref.policy.PageCache;

/**
 * Caffeine (W-TinyLFU) bounded to {@code capacity} entries as a {@link PageCache}: a request hits if the page is
 * present, otherwise it is put. Maintenance, and so eviction, runs on the calling thread
 * ({@code executor(Runnable::run)}), so the replay is deterministic and the cache never holds more than a moment
 * beyond its bound.
 */
final class CaffeinePageCache implements PageCache {
    private final Cache<Long, Boolean> cache;
    private final int capacity;

    CaffeinePageCache(int capacity) {
        this.cache = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
        this.capacity = capacity;
    }

    @Override
    public boolean access(long page) {
        if (cache.getIfPresent(page) != null) {
            return true;
        }
        cache.put(page, Boolean.TRUE);
        return false;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return "caffeine";
    }
}
