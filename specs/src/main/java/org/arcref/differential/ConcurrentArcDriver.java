package org.arcref.differential;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.ReadResult;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;

/**
 * The exact differential D1 between the sequential spec and the {@link ConcurrentArc}: applies the spec's
 * {@link Operation}s to a {@link ConcurrentArc} of {@code Long} values, where every block's value is a function of
 * its key ({@link #valueOf}), both for the loader and for writes and overwrites, so that a read returning anything
 * else returned another key's value or a stale one (N1); and compares the outcome and the full snapshot with the
 * spec's.
 *
 * <p>Used by the D1 property and the bad-input property (specs) and by {@code arc explore}.
 */
public final class ConcurrentArcDriver {

    private ConcurrentArcDriver() {
    }

    /** @param key a block identity @return the only value that block ever has */
    public static Long valueOf(long key) {
        return key * 1_000_003L + 17;
    }

    /**
     * Deterministic mode with one choice drawn from the configuration's seed (so a failure reproduces from the
     * configuration): the exact {@code arc_p} growth compare of experiment E2 or 2.1.1's upper bound (equal with an
     * exact aggsum). The hash locks are ZFS's {@code BUF_LOCKS}, over 2.1.1's {@code buf_hash}, which the spec models:
     * a header whose lock the allocating thread holds counts a {@code mutex_miss}.
     *
     * @param seed the configuration's seed
     * @return the options of the concurrent ARC compared with a spec of that seed
     */
    public static ArcOptions deterministicOptions(long seed) {
        return ArcOptions.deterministic().withExactPGrowthCompare((seed & 1) == 0);
    }

    /**
     * @param op an operation
     * @param arc the concurrent ARC
     * @return the concurrent ARC's outcome of {@code op}
     * @throws AssertionError if a read returns a value other than {@link #valueOf} its key
     * @throws IllegalArgumentException if the concurrent ARC rejects {@code op}
     */
    public static Outcome apply(Operation op, ConcurrentArc<Long> arc) {
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
        } else if (op instanceof Operation.Overwrite o) {
            return arc.overwrite(o.key(), o.newKey(), valueOf(o.newKey()));
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

    /**
     * D1 for one operation: applies {@code op} to {@code arc} and compares with what the spec did.
     *
     * @param op the operation the spec just applied
     * @param specOutcome the spec's outcome
     * @param specAfter the spec's snapshot after {@code op}
     * @param arc the concurrent ARC, in the spec's state before {@code op}
     * @throws AssertionError starting {@code D1: } if the outcome or the snapshot differs (or {@code N1: } if a
     *     read returns a wrong value)
     */
    public static void follow(Operation op, Outcome specOutcome, ArcSnapshot specAfter, ConcurrentArc<Long> arc) {
        Outcome outcome = apply(op, arc);
        ArcSnapshot snapshot = arc.snapshot();
        if (outcome != specOutcome || !snapshot.equals(specAfter)) {
            throw new AssertionError("D1: after " + op.toTraceLine() + " the spec returned " + specOutcome
                    + " and the concurrent ARC " + outcome + "\nspec:       " + specAfter
                    + "\nconcurrent: " + snapshot);
        }
    }
}
