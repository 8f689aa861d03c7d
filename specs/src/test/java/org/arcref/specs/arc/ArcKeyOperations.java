package org.arcref.specs.arc;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.EvictorMode;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.LongGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * The Lincheck scenario of the concurrent ARC's per-key operations on three keys, in a cache far larger than
 * they need (no eviction): read (demand, no hold), write, write completion, free and lookup, against
 * {@link SequentialBlockStore}. Four hash locks, so that keys share locks. The aggsum is the per-CPU one and the
 * evictor is stepped (it never has work here). A rejected operation returns {@code "REJECTED"}. Subclasses
 * substitute a broken cache.
 */
public class ArcKeyOperations {
    static final int SIZE = 4096;

    private final ConcurrentArc<Long> arc;

    /** Counts one invocation ({@link ExploredSchedules}): Lincheck builds a new instance for every one. */
    public ArcKeyOperations() {
        ExploredSchedules.count();
        arc = newArc(ArcConfig.small(64L << 20, 64L << 20, SIZE), MemoryModel.plentiful(),
                new ArcOptions(false, EvictorMode.STEPPED, false, 4));
    }

    /** The cache under test; called from the constructor, so overrides must not use instance state. */
    protected ConcurrentArc<Long> newArc(ArcConfig config, MemoryModel memory, ArcOptions options) {
        return new ConcurrentArc<>(config, memory, options);
    }

    /** @param key a key @return the value a miss loads for it (its value on disk before any write) */
    static long diskValue(long key) {
        return 1000 + key;
    }

    @Operation
    public Object read(@Param(gen = IntGen.class, conf = "0:2") int key) {
        try {
            return arc.read(key, SIZE, ReadKind.DEMAND, false, ArcKeyOperations::diskValue).value();
        } catch (IllegalArgumentException e) {
            return "REJECTED";
        }
    }

    @Operation
    public Object write(@Param(gen = IntGen.class, conf = "0:2") int key,
            @Param(gen = LongGen.class, conf = "1:3") long value) {
        try {
            return arc.write(key, SIZE, value).name();
        } catch (IllegalArgumentException e) {
            return "REJECTED";
        }
    }

    @Operation
    public Object complete(@Param(gen = IntGen.class, conf = "0:2") int key) {
        try {
            return arc.completeWrite(key, false).name();
        } catch (IllegalArgumentException e) {
            return "REJECTED";
        }
    }

    @Operation
    public String free(@Param(gen = IntGen.class, conf = "0:2") int key) {
        return arc.free(key).name();
    }

    @Operation
    public Long lookup(@Param(gen = IntGen.class, conf = "0:2") int key) {
        return arc.lookup(key);
    }

    /** N1 at quiescence: arc_size equals the sum of the state sizes and the bytes the headers hold. */
    @Validate
    public void accountingAddsUp() {
        ArcSnapshot s = arc.snapshot();
        long states = s.state(ArcState.ANON).size() + s.state(ArcState.MRU).size() + s.state(ArcState.MFU).size();
        long resident = s.headers().stream().filter(h -> !h.state().isGhost())
                .mapToLong(HeaderSnapshot::accountedSize).sum();
        if (s.size() != states || states != resident) {
            throw new PropertyViolation(Property.N1, "at quiescence arc_size=" + s.size() + ", state sizes="
                    + states + ", resident=" + resident, "");
        }
    }
}
