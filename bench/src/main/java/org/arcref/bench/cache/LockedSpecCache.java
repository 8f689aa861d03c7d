package org.arcref.bench.cache;

import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;

/**
 * The sequential spec {@link ZfsArc} behind one lock, in page mode ({@link ArcConfig#pages}, evictor after each
 * operation, {@code zfs_abd_scatter_enabled} as given): the baseline a concurrent ARC must beat. The spec holds
 * no values, so a read returns its outcome; a write is the same three operations as {@link ArcCache}'s, under one
 * lock hold, so it is never rejected.
 */
final class LockedSpecCache implements BenchCache {
    private final ZfsArc spec;

    LockedSpecCache(int pages, boolean scatter) {
        spec = new ZfsArc(ArcCache.config(pages, scatter), MemoryModel.plentiful());
    }

    @Override
    public synchronized Object read(long key) {
        return spec.read(key, ArcCache.PAGE, ReadKind.DEMAND, false);
    }

    @Override
    public synchronized Object write(long key) {
        spec.free(key);
        spec.write(key, ArcCache.PAGE);
        return spec.completeWrite(key, false);
    }

    @Override
    public void close() {
        // nothing to release: no threads
    }
}
