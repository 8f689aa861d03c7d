package org.arcref.specs.zfs;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;

/**
 * The state of a stateful property run: the spec, its configuration, the operations applied so
 * far (printed as an op trace when an invariant fails, so the run can be replayed with
 * {@code arc}), and the snapshot before the last operation.
 */
final class ArcUnderTest {

    /** Keys of blocks that are read; their size is a function of the key. */
    static final int READ_KEYS = 24;
    /** First key used for writes, which need new identities. */
    static final long FIRST_WRITE_KEY = 1000;

    final ArcConfig config;
    final ZfsArc arc;
    private final List<Operation> applied = new ArrayList<>();
    private long nextWriteKey = FIRST_WRITE_KEY;
    ArcSnapshot before;
    ArcSnapshot after;
    Operation lastOp;
    Outcome lastOutcome;

    ArcUnderTest(ArcConfig config) {
        this.config = config;
        this.arc = new ZfsArc(config, new AdjustableMemory(Long.MAX_VALUE / 8));
        this.after = arc.snapshot();
    }

    /** @return the block size of a read key: 512, 1024, 1536 or 2048 bytes */
    static long sizeOf(long key) {
        return 512 * (1 + Math.floorMod(key, 4));
    }

    long freshWriteKey() {
        return nextWriteKey++;
    }

    void apply(Operation op) {
        before = after;
        lastOp = op;
        applied.add(op);
        lastOutcome = op.applyTo(arc);
        after = arc.snapshot();
    }

    List<Long> keys(java.util.function.Predicate<HeaderSnapshot> filter) {
        return after.headers().stream().filter(filter).map(HeaderSnapshot::key).collect(Collectors.toList());
    }

    List<Long> pendingWrites() {
        return keys(h -> h.state() == ArcState.ANON);
    }

    List<Long> heldCached() {
        return keys(h -> h.state() != ArcState.ANON && h.refcount() > 0);
    }

    /** @return the reproduction: configuration and the op trace so far */
    String reproduction() {
        return "config: " + config + "\nop trace:\n"
                + applied.stream().map(Operation::toTraceLine).collect(Collectors.joining("\n"));
    }

    @Override
    public String toString() {
        return "ArcUnderTest after " + applied.size() + " operations";
    }
}
