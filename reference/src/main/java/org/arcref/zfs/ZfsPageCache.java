package org.arcref.zfs;

import org.arcref.policy.PageCache;

/**
 * An engine of the ZFS ARC spec in page mode: every request advances the clock by one tick and is a demand read,
 * without hold, of one {@link #PAGE_SIZE} data block, on a cache configured by {@link ArcConfig#pages(int, long)}
 * (so {@code arc_c} stays at the capacity, {@code ARC_MINTIME} is one tick, and the evictor runs after each request
 * as a free-running zthr would). One adaptor serves both engines, through {@link ArcOperations}: {@link #zfs(int)}
 * runs zfs-2.1.1's ({@link ZfsArc}), {@link #zfs22(int)} zfs-2.2.0's ({@link Zfs22Arc}); {@link #arc()} gives the
 * engine, typed, for its snapshot and statistics.
 *
 * <p>Like ZFS, both engines evict only once the size overflows the target by half of
 * {@code MAX(SPA_MAXBLOCKSIZE, arc_c >> 8)}, so the cache holds a few pages more than its capacity (one more up to
 * 256 pages, where that allowance is one page). Not thread-safe, as the engines are not.
 *
 * @param <A> the engine's type
 */
public final class ZfsPageCache<A extends ArcOperations> implements PageCache {

    /** The page size used for replays: 4 KiB. */
    public static final long PAGE_SIZE = 4096;

    private final String name;
    private final A arc;
    private final int capacity;

    /**
     * A page cache over an engine, for experiments that vary a setting of {@link ArcConfig#pages(int, long)} (a
     * lower {@code arc_c_min}, other tunables, quirk fixes) or use another engine.
     *
     * @param name the name for tables and JSON ({@link #name()}), not blank
     * @param arc an empty engine, used by this cache alone; its capacity is {@code arc_c_max / PAGE_SIZE} pages
     * @throws IllegalArgumentException if the name is blank, the engine's largest block is below
     *     {@link #PAGE_SIZE}, or its {@code arc_c_max} is not 2 to {@link Integer#MAX_VALUE} pages
     */
    public ZfsPageCache(String name, A arc) {
        Validate.notNull("name", name);
        if (name.isBlank()) {
            throw new InvalidArgumentException("name", "must not be blank, was \"" + name + "\"");
        }
        ArcConfig config = Validate.notNull("arc", arc).config();
        Validate.range("arc.config().maxBlockSize", config.maxBlockSize(), PAGE_SIZE, ArcConfig.ZFS_MAX_BLOCK_SIZE);
        Validate.range("arc.config().cMax / PAGE_SIZE", config.cMax() / PAGE_SIZE, 2, Integer.MAX_VALUE);
        this.name = name;
        this.arc = arc;
        this.capacity = (int) (config.cMax() / PAGE_SIZE);
    }

    /**
     * @param capacity the capacity in pages, at least 2
     * @return zfs-2.1.1's engine at {@code ArcConfig.pages(capacity, PAGE_SIZE)}, named {@code zfs}
     * @throws IllegalArgumentException if the capacity is below 2
     */
    public static ZfsPageCache<ZfsArc> zfs(int capacity) {
        return zfs(ArcConfig.pages(capacity, PAGE_SIZE));
    }

    /**
     * @param config a variant of {@link ArcConfig#pages(int, long)} with {@link #PAGE_SIZE} pages
     * @return zfs-2.1.1's engine on it, with plentiful memory, named {@code zfs}
     * @throws IllegalArgumentException as {@link #ZfsPageCache(String, ArcOperations)}
     */
    public static ZfsPageCache<ZfsArc> zfs(ArcConfig config) {
        return new ZfsPageCache<>("zfs", new ZfsArc(config, MemoryModel.plentiful()));
    }

    /**
     * zfs-2.2.0's engine at {@code ArcConfig.pages(capacity, PAGE_SIZE)}, with plentiful memory and ZFS's
     * {@code zfs_arc_meta_balance}. {@code SPA_OLD_MAXBLOCKSIZE}, {@code arc_adapt}'s growth step, is one page, as
     * {@code SPA_MAXBLOCKSIZE} is; it changes nothing here, since {@code arc_c} is pinned at
     * {@code arc_c_min = arc_c_max}.
     *
     * @param capacity the capacity in pages, at least 2
     * @return the cache, named {@code zfs22}
     * @throws IllegalArgumentException if the capacity is below 2
     */
    public static ZfsPageCache<Zfs22Arc> zfs22(int capacity) {
        return new ZfsPageCache<>("zfs22", new Zfs22Arc(ArcConfig.pages(capacity, PAGE_SIZE), PAGE_SIZE,
                Zfs22Arc.ZFS_META_BALANCE, MemoryModel.plentiful()));
    }

    @Override
    public boolean access(long page) {
        arc.tick(1);
        return arc.read(page, PAGE_SIZE, ReadKind.DEMAND, false, BufType.DATA).isHit();
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public String name() {
        return name;
    }

    /** @return the engine underneath, for its snapshot and statistics */
    public A arc() {
        return arc;
    }
}
