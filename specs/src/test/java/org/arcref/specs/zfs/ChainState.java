package org.arcref.specs.zfs;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;

/**
 * What {@link ArcChains}' generators read of a run, for either engine of the spec: its headers after the last
 * operation, fresh write keys and the type a new block of a key has; and the operations applied so far, printed as
 * an op trace when a check fails so that the run can be replayed with {@code arc}.
 */
public abstract class ChainState {

    /** Keys of blocks that are read; their size is a function of the key. */
    static final int READ_KEYS = 24;
    /** First key used for writes, which need new identities. */
    static final long FIRST_WRITE_KEY = 1000;

    private final List<Operation> applied = new ArrayList<>();
    private long nextWriteKey = FIRST_WRITE_KEY;

    /** @return every header after the last operation */
    public abstract List<HeaderSnapshot> headers();

    /**
     * @param key a key without a header
     * @return the type a new block of this key has
     */
    public abstract BufType typeOf(long key);

    /**
     * Applies an operation to the engine and checks what the run checks.
     *
     * @param op the operation
     */
    public abstract void apply(Operation op);

    /** @return the block size of a read key: 512, 1024, 1536 or 2048 bytes */
    static long sizeOf(long key) {
        return 512 * (1 + Math.floorMod(key, 4));
    }

    long freshWriteKey() {
        return nextWriteKey++;
    }

    /** @param op an operation about to be applied, recorded for {@link #opTrace()} */
    void record(Operation op) {
        applied.add(op);
    }

    /** @return the operations applied so far, as an op trace */
    String opTrace() {
        return applied.stream().map(Operation::toTraceLine).collect(Collectors.joining("\n"));
    }

    /** @return how many operations were applied */
    int operations() {
        return applied.size();
    }

    List<Long> keys(Predicate<HeaderSnapshot> filter) {
        return headers().stream().filter(filter).map(HeaderSnapshot::key).collect(Collectors.toList());
    }

    List<Long> pendingWrites() {
        return keys(h -> h.state() == ArcState.ANON);
    }

    List<Long> heldCached() {
        return keys(h -> h.state() != ArcState.ANON && h.refcount() > 0);
    }
}
