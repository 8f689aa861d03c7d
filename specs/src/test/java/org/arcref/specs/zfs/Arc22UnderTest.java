package org.arcref.specs.zfs;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.Zfs22Arc;
import org.arcref.zfs.check.Arc22Invariants;

/**
 * The state of a stateful property run on zfs-2.2.0's engine: the engine, how it was built, the snapshots before and
 * after the last operation, and what the run has reached (for coverage statistics). Keys whose remainder modulo 3 is
 * 1 are metadata blocks, the others data, so that every read key's size (512 to 2048 bytes) comes in both types.
 */
public final class Arc22UnderTest extends ChainState {

    /**
     * What a run is built from.
     *
     * @param config the configuration, with zfs-2.2.0's fixes
     * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE}
     * @param metaBalance {@code zfs_arc_meta_balance}
     */
    public record Setup(ArcConfig config, long oldMaxBlockSize, int metaBalance) {
        @Override
        public String toString() {
            return config + ", spa_old_maxblocksize=" + oldMaxBlockSize + ", zfs_arc_meta_balance=" + metaBalance;
        }
    }

    /**
     * @return {@link ArcChains#configs(ZfsEngine)} for zfs-2.2.0's engine, with {@code SPA_OLD_MAXBLOCKSIZE} of 512
     *     bytes to 4 KiB (so that {@code arc_adapt}'s step is the block or above it) and {@code zfs_arc_meta_balance}
     *     1, 100, 500 (the default) or 1000
     */
    public static Arbitrary<Setup> setups() {
        return Combinators.combine(ArcChains.configs(ZfsEngine.V2_2_0), Arbitraries.of(512L, 1024L, 4096L),
                Arbitraries.of(1, 100, 500, 1000)).as(Setup::new);
    }

    final Setup setup;
    final Zfs22Arc arc;
    Arc22Snapshot before;
    Arc22Snapshot after;
    Operation lastOp;
    /** Whether a cached header was ever held after an operation (for coverage statistics). */
    boolean everHeld;
    /** Whether an operation ever lowered {@code arc_c} (for coverage statistics). */
    boolean everReducedTarget;
    /** Whether a fraction ever left {@code [0, 2^32]}: zfs-2.2.0's quirk (for statistics). */
    boolean everOutOfRange;

    /** @param setup what the engine is built from */
    public Arc22UnderTest(Setup setup) {
        this.setup = setup;
        this.arc = new Zfs22Arc(setup.config(), setup.oldMaxBlockSize(), setup.metaBalance(),
                new AdjustableMemory(ArcUnderTest.INITIAL_FREE_MEMORY));
        this.after = arc.snapshot();
    }

    @Override
    public List<HeaderSnapshot> headers() {
        return after.headers();
    }

    @Override
    public BufType typeOf(long key) {
        return Math.floorMod(key, 3) == 1 ? BufType.METADATA : BufType.DATA;
    }

    @Override
    public void apply(Operation op) {
        before = after;
        lastOp = op;
        record(op);
        op.applyTo(arc);
        after = arc.snapshot();
        everHeld |= !heldCached().isEmpty();
        everReducedTarget |= Long.compareUnsigned(after.c(), before.c()) < 0;
        everOutOfRange |= !Arc22Invariants.fractionsOutOfRange(after).isEmpty();
    }

    /** @return the reproduction: how the engine was built and the op trace so far */
    public String reproduction() {
        return "setup: " + setup + "\nop trace:\n" + opTrace();
    }

    @Override
    public String toString() {
        return "Arc22UnderTest after " + operations() + " operations";
    }
}
