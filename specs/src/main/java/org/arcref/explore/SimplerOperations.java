package org.arcref.explore;

import java.util.ArrayList;
import java.util.List;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;

/**
 * The simpler variants of an operation that the {@link Shrinker} tries in place of it, simplest first: a read or a
 * completion without its hold, a demand read instead of a prefetch, a read or a write without {@code uncached}, a
 * release instead of an overwrite (the hold dropped without a pending write), a tick of 1 or half, a shrink of 0
 * or half. A read keeps its buffer type (a key's type is fixed by its first use). Every variant is strictly simpler
 * (fewer holds, flags or pending writes, a demand read, or a smaller amount), and none is replaced by an overwrite,
 * so replacing cannot go on for ever.
 */
final class SimplerOperations {

    private SimplerOperations() {
    }

    /**
     * @param op an operation
     * @return its simpler variants, simplest first; empty if there is none
     */
    static List<Operation> of(Operation op) {
        List<Operation> variants = new ArrayList<>();
        if (op instanceof Operation.Read r) {
            if (r.hold()) {
                variants.add(new Operation.Read(r.key(), r.size(), r.kind(), false, r.type(), r.uncached()));
            }
            if (r.kind() != ReadKind.DEMAND) {
                variants.add(new Operation.Read(r.key(), r.size(), ReadKind.DEMAND, false, r.type(), r.uncached()));
            }
            if (r.uncached()) {
                variants.add(new Operation.Read(r.key(), r.size(), r.kind(), r.hold(), r.type(), false));
            }
        } else if (op instanceof Operation.Write w && w.uncached()) {
            variants.add(new Operation.Write(w.key(), w.size(), w.type(), false));
        } else if (op instanceof Operation.Complete c && c.hold()) {
            variants.add(new Operation.Complete(c.key(), false));
        } else if (op instanceof Operation.Overwrite o) {
            variants.add(new Operation.Release(o.key()));
        } else if (op instanceof Operation.Tick t) {
            smaller(t.ticks(), 1).forEach(n -> variants.add(new Operation.Tick(n)));
        } else if (op instanceof Operation.Shrink s) {
            smaller(s.bytes(), 0).forEach(n -> variants.add(new Operation.Shrink(n)));
        }
        return variants;
    }

    /** @return {@code floor}, then half of {@code n}, each only if it is below {@code n} and not already listed */
    private static List<Long> smaller(long n, long floor) {
        List<Long> values = new ArrayList<>();
        if (floor < n) {
            values.add(floor);
        }
        if (n / 2 > floor) {
            values.add(n / 2);
        }
        return values;
    }
}
