package org.arcref.zfs;

import org.arcref.policy.PageCache;

/**
 * The ZFS ARC spec in page mode: every request advances the clock by one tick and is a demand read,
 * without hold, of a block of one page, on a cache configured by {@link ArcConfig#pages(int, long)}
 * (so {@code arc_c} stays at the capacity, {@code ARC_MINTIME} is one tick, and the evictor runs
 * after each request as a free-running zthr would). Like ZFS, it only evicts once the size
 * overflows the target by half of {@code MAX(SPA_MAXBLOCKSIZE, arc_c >> 8)}, so it holds a few pages
 * more than its capacity (one more up to 256 pages, where that allowance is one page).
 */
public final class ZfsPageCache implements PageCache {

    /** The page size used for replays: 4 KiB. */
    public static final long PAGE_SIZE = 4096;

    private final ZfsArc arc;
    private final int capacity;

    /**
     * @param capacity the capacity in pages, at least 2
     * @throws IllegalArgumentException if the capacity is below 2
     */
    public ZfsPageCache(int capacity) {
        this(ArcConfig.pages(capacity, PAGE_SIZE));
    }

    /**
     * A page cache over another configuration, for experiments that vary one setting of
     * {@link ArcConfig#pages(int, long)} (a lower {@code arc_c_min}, other tunables).
     *
     * @param config the configuration; its capacity is {@code arc_c_max / PAGE_SIZE} pages, and its
     *     block-size limit must admit {@link #PAGE_SIZE} (each read checks it)
     */
    public ZfsPageCache(ArcConfig config) {
        this.arc = new ZfsArc(config, MemoryModel.plentiful());
        this.capacity = (int) (config.cMax() / PAGE_SIZE);
    }

    @Override
    public boolean access(long page) {
        arc.tick(1);
        Outcome o = arc.read(page, PAGE_SIZE, ReadKind.DEMAND, false);
        return o.isHit();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return "zfs";
    }

    /** @return the underlying spec, for statistics */
    public ZfsArc arc() {
        return arc;
    }
}
