package org.arcref.cli;

import java.util.function.IntFunction;
import org.arcref.policy.CanonicalArc;
import org.arcref.policy.Lru;
import org.arcref.policy.PageCache;
import org.arcref.zfs.ZfsPageCache;

/** The policies a trace can be replayed through, by their command-line names. */
enum Policy {
    /** The spec's zfs-2.1.1 engine in page mode. */
    ZFS(ZfsPageCache::zfs),
    /** The spec's zfs-2.2.0 engine in page mode. */
    ZFS22(ZfsPageCache::zfs22),
    /** The canonical ARC of Megiddo and Modha (FAST'03, Figure 4). */
    CANONICAL(CanonicalArc::new),
    /** Least recently used. */
    LRU(Lru::new);

    private final IntFunction<PageCache> factory;

    Policy(IntFunction<PageCache> factory) {
        this.factory = factory;
    }

    /** @param pages the capacity @return a new, empty cache of this policy */
    PageCache create(int pages) {
        return factory.apply(pages);
    }

    /** @return the lower-case name used on the command line and in output */
    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
