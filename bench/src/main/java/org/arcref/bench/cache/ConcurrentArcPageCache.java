package org.arcref.bench.cache;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.policy.PageCache;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsPageCache;

/**
 * {@link ConcurrentArc} in its ZFS default mode ({@link ArcOptions#zfs()}: per-CPU aggsum, the evict zthr running
 * by itself) as a {@link PageCache}, driven like {@link ZfsPageCache}: one tick and one demand read of one page
 * per request. Because the evictor runs asynchronously, the hit ratio depends on scheduling and may differ from
 * run to run and from the spec's (see {@code DifferentialD2Test}).
 */
final class ConcurrentArcPageCache implements PageCache, AutoCloseable {
    private final ConcurrentArc<Long> arc;
    private final int capacity;

    ConcurrentArcPageCache(int capacity) {
        this.arc = new ConcurrentArc<>(ArcConfig.pages(capacity, ZfsPageCache.PAGE_SIZE), MemoryModel.plentiful(),
                ArcOptions.zfs());
        this.capacity = capacity;
    }

    @Override
    public boolean access(long page) {
        arc.tick(1);
        Outcome o = arc.read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false, Long::valueOf).outcome();
        return o.isHit();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return "concurrent";
    }

    @Override
    public void close() {
        arc.close();
    }
}
