package org.arcref.bench.cache;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;

/**
 * {@link ConcurrentArc} in its ZFS default mode ({@link ArcOptions#zfs()}: per-CPU aggsum, evict zthr at
 * {@code defclsyspri}), in page mode ({@link ArcConfig#pages}) with ZFS's default sublist count and the given
 * {@code zfs_abd_scatter_enabled}.
 *
 * <p>A read is a demand read without hold. A write is what replacing a cached block's contents costs the ARC,
 * which has no update in place: {@code arc_freed} of the old block, a new anonymous buffer, and its write
 * completion. The three are separate operations, so another thread's read or write of the same key can come in
 * between; the ARC then rejects the write (the key is cached again) or that read (the key has a pending write)
 * with an {@link IllegalArgumentException} and leaves its state unchanged. Such an operation returns the exception
 * instead of a value; the benchmark counts them ({@code rejected}), it does not retry them.
 */
final class ArcCache implements BenchCache {
    static final long PAGE = 4096;

    private final ConcurrentArc<Long> arc;

    ArcCache(int pages, boolean scatter) {
        arc = new ConcurrentArc<>(config(pages, scatter).withSublists(ConcurrentArc.defaultSublists()),
                MemoryModel.plentiful(), ArcOptions.zfs());
    }

    /** {@link ArcConfig#pages} of {@value #PAGE}-byte pages with {@code zfs_abd_scatter_enabled} as given. */
    static ArcConfig config(int pages, boolean scatter) {
        ArcConfig c = ArcConfig.pages(pages, PAGE);
        return c.withTunables(c.tunables().withAbdScatterEnabled(scatter));
    }

    @Override
    public Object read(long key) {
        try {
            return arc.read(key, PAGE, ReadKind.DEMAND, false, Long::valueOf).value();
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    @Override
    public Object write(long key) {
        try {
            arc.free(key);
            arc.write(key, PAGE, key);
            return arc.completeWrite(key, false);
        } catch (IllegalArgumentException e) {
            return e;
        }
    }

    @Override
    public void close() {
        arc.close();
    }
}
