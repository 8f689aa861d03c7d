package org.arcref.specs.zfs;

import java.util.List;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;

/**
 * The state of a stateful property run: the spec, its configuration, the operations applied so
 * far (printed as an op trace when an invariant fails, so the run can be replayed with
 * {@code arc}), and the snapshot before the last operation. A {@link Follower} may apply every operation to a
 * second implementation and compare (property D1).
 */
public final class ArcUnderTest extends ChainState {

    /** Applies each operation to another implementation after the spec applied it, and checks the results. */
    @FunctionalInterface
    public interface Follower {
        /**
         * @param spec the spec's state just after {@link ArcUnderTest#lastOp()}
         * @throws AssertionError if the other implementation disagrees
         */
        void follow(ArcUnderTest spec);
    }

    /** The free memory of the spec's {@link AdjustableMemory} at the start: no memory pressure. */
    public static final long INITIAL_FREE_MEMORY = Long.MAX_VALUE / 8;

    final ArcConfig config;
    final ZfsArc arc;
    ArcSnapshot before;
    ArcSnapshot after;
    Operation lastOp;
    Outcome lastOutcome;
    /** Whether a cached header was ever held after an operation (for coverage statistics). */
    boolean everHeld;
    /** Whether an operation ever lowered {@code arc_c} (for coverage statistics). */
    boolean everReducedTarget;
    /** Whether an overwrite ever released a block's lone buffer (for coverage statistics). */
    boolean everOverwroteLoneBuffer;
    /** Whether an overwrite ever released one of a block's several buffers (for coverage statistics). */
    boolean everOverwroteOneOfBuffers;

    private final Follower follower;

    /** @param config the spec's configuration */
    public ArcUnderTest(ArcConfig config) {
        this(config, spec -> { });
    }

    /**
     * @param config the spec's configuration
     * @param follower called after every operation
     */
    public ArcUnderTest(ArcConfig config, Follower follower) {
        this.config = config;
        this.follower = follower;
        this.arc = new ZfsArc(config, new AdjustableMemory(INITIAL_FREE_MEMORY));
        this.after = arc.snapshot();
    }

    /** @return the configuration */
    public ArcConfig config() {
        return config;
    }

    /** @return the last operation applied */
    public Operation lastOp() {
        return lastOp;
    }

    /** @return the spec's outcome of the last operation */
    public Outcome lastOutcome() {
        return lastOutcome;
    }

    /** @return the spec's snapshot after the last operation */
    public ArcSnapshot after() {
        return after;
    }

    @Override
    public List<HeaderSnapshot> headers() {
        return after.headers();
    }

    /** @return data: zfs-2.1.1's engine has no other type */
    @Override
    public BufType typeOf(long key) {
        return BufType.DATA;
    }

    @Override
    public void apply(Operation op) {
        before = after;
        lastOp = op;
        record(op);
        lastOutcome = op.applyTo(arc);
        after = arc.snapshot();
        everHeld |= !heldCached().isEmpty();
        everReducedTarget |= Long.compareUnsigned(after.c(), before.c()) < 0;
        if (op instanceof Operation.Overwrite o) {
            boolean lone = before.headers().stream().anyMatch(h -> h.key() == o.key() && h.refcount() == 1);
            everOverwroteLoneBuffer |= lone;
            everOverwroteOneOfBuffers |= !lone;
        }
        follower.follow(this);
    }

    /** @return the reproduction: configuration and the op trace so far */
    public String reproduction() {
        return "config: " + config + "\nop trace:\n" + opTrace();
    }

    @Override
    public String toString() {
        return "ArcUnderTest after " + operations() + " operations";
    }
}
