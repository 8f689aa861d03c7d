package org.arcref.stress.arc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.EvictorMode;
import org.arcref.stress.Variants;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zthr.ZthrPriority;

/**
 * The ARC under test: {@link ConcurrentArc}'s constructor, unless {@value Variants#ARC_PROPERTY} names a static
 * factory of a broken variant ({@code org.arcref.arc.BrokenArcs#...}, in {@code concurrent}'s test-jar).
 */
final class Arcs {
    private static final MethodHandle FACTORY = Variants.factory(Variants.ARC_PROPERTY, production());

    /** The block size of {@link #smallCacheWithEvictZthr()}. */
    static final long BLOCK = 4096;

    private Arcs() {
    }

    @SuppressWarnings("unchecked")
    static ConcurrentArc<Long> create(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return Variants.invoke(FACTORY, ConcurrentArc.class, config, memory, options);
    }

    /**
     * The eviction-waiter scenarios' cache: 16 KiB of {@value #BLOCK}-byte blocks, so that a few reads overflow it
     * severely; the evict zthr at {@code defclsyspri}; an exact aggsum, so that one reader's borrow cannot hide the
     * overflow of so small a cache.
     */
    static ConcurrentArc<Long> smallCacheWithEvictZthr() {
        return create(ArcConfig.small(16L << 10, 16L << 10, BLOCK), MemoryModel.plentiful(),
                new ArcOptions(true, EvictorMode.zthr(ZthrPriority.DEFCLSYSPRI), false, ArcOptions.ZFS_BUF_LOCKS));
    }

    private static MethodHandle production() {
        try {
            return MethodHandles.publicLookup().findConstructor(ConcurrentArc.class,
                    MethodType.methodType(void.class, ArcConfig.class, MemoryModel.class, ArcOptions.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
