package org.arcref.specs.arc;

import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.ReadResult;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;

/**
 * Applies the spec's {@link Operation}s to a {@link ConcurrentArc} of {@code Long} values, where every block's
 * value is a function of its key ({@link #valueOf}), both for the loader and for writes, so that a read returning
 * anything else returned another key's value or a stale one (N1).
 */
final class ConcurrentArcDriver {

    private ConcurrentArcDriver() {
    }

    /** @param key a block identity @return the only value that block ever has */
    static Long valueOf(long key) {
        return key * 1_000_003L + 17;
    }

    /**
     * @return the concurrent ARC's outcome of {@code op}
     * @throws AssertionError if a read returns a value other than {@link #valueOf} its key
     */
    static Outcome apply(Operation op, ConcurrentArc<Long> arc) {
        if (op instanceof Operation.Read r) {
            ReadResult<Long> result = arc.read(r.key(), r.size(), r.kind(), r.hold(), ConcurrentArcDriver::valueOf);
            if (!valueOf(r.key()).equals(result.value())) {
                throw new AssertionError("N1: read of key " + r.key() + " returned " + result.value()
                        + ", expected " + valueOf(r.key()));
            }
            return result.outcome();
        } else if (op instanceof Operation.Write w) {
            return arc.write(w.key(), w.size(), valueOf(w.key()));
        } else if (op instanceof Operation.Complete c) {
            return arc.completeWrite(c.key(), c.hold());
        } else if (op instanceof Operation.Release r) {
            return arc.release(r.key());
        } else if (op instanceof Operation.Free f) {
            return arc.free(f.key());
        } else if (op instanceof Operation.Shrink s) {
            return arc.reduceTargetSize(s.bytes());
        } else if (op instanceof Operation.Evict) {
            return arc.evictorStep();
        } else if (op instanceof Operation.Reap) {
            return arc.reapStep();
        } else if (op instanceof Operation.Tick t) {
            return arc.tick(t.ticks());
        } else if (op instanceof Operation.Memory m) {
            return arc.setFreeMemory(m.freeBytes());
        }
        throw new IllegalArgumentException("op must be one of the Operation records, was " + op);
    }
}
