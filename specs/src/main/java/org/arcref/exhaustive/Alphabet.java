package org.arcref.exhaustive;

import java.util.ArrayList;
import java.util.List;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;

/**
 * The operations the exhaustive explorer tries in every state: every kind of the op-trace format, over a few keys,
 * block sizes, tick lengths, shrink amounts and free-memory levels. Immutable.
 *
 * <p>Every key-taking operation is offered for every key ({@code 0 … keys-1}) with every size, and an overwrite for
 * every ordered pair of distinct keys, so the alphabet is symmetric in the keys: renaming keys that fall in the same sublist maps the alphabet onto itself, which is what
 * makes {@link StateEncoding}'s key renaming sound.
 *
 * @param keys the number of keys, {@code 0 … keys-1}
 * @param sizes the block sizes
 * @param ticks the clock advances ({@code tick})
 * @param shrinks the amounts of {@code shrink} ({@code arc_reduce_target_size})
 * @param memory the free-memory levels of {@code memory}
 */
public record Alphabet(int keys, List<Long> sizes, List<Long> ticks, List<Long> shrinks, List<Long> memory) {

    /**
     * The most keys an alphabet may have: {@link StateEncoding} packs a key's canonical index into one word with
     * the header's flags and hold count (bits 40 and up).
     */
    public static final int MAX_KEYS = 1 << 12;

    /** Validates the arguments; lists are copied. */
    public Alphabet {
        if (keys < 1 || keys > MAX_KEYS) {
            throw new IllegalArgumentException("keys must be in [1, " + MAX_KEYS + "], was " + keys);
        }
        sizes = List.copyOf(sizes);
        ticks = List.copyOf(ticks);
        shrinks = List.copyOf(shrinks);
        memory = List.copyOf(memory);
        if (sizes.isEmpty()) {
            throw new IllegalArgumentException("sizes must name at least one block size, was empty");
        }
    }

    /**
     * @return every operation, in a fixed order: for each key the reads (demand, demand with hold, prefetch,
     *     prescient prefetch, each size), writes (each size), completions (with and without hold), release,
     *     overwrites to each other key and free; then the shrinks, {@code evict}, {@code reap}, the ticks and the
     *     memory levels
     */
    public List<Operation> operations() {
        List<Operation> ops = new ArrayList<>();
        for (long key = 0; key < keys; key++) {
            for (long size : sizes) {
                ops.add(new Operation.Read(key, size, ReadKind.DEMAND, false));
                ops.add(new Operation.Read(key, size, ReadKind.DEMAND, true));
                ops.add(new Operation.Read(key, size, ReadKind.PREFETCH, false));
                ops.add(new Operation.Read(key, size, ReadKind.PRESCIENT_PREFETCH, false));
                ops.add(new Operation.Write(key, size));
            }
            ops.add(new Operation.Complete(key, false));
            ops.add(new Operation.Complete(key, true));
            ops.add(new Operation.Release(key));
            for (long newKey = 0; newKey < keys; newKey++) {
                if (newKey != key) {
                    ops.add(new Operation.Overwrite(key, newKey));
                }
            }
            ops.add(new Operation.Free(key));
        }
        shrinks.forEach(b -> ops.add(new Operation.Shrink(b)));
        ops.add(new Operation.Evict());
        ops.add(new Operation.Reap());
        ticks.forEach(t -> ops.add(new Operation.Tick(t)));
        memory.forEach(m -> ops.add(new Operation.Memory(m)));
        return ops;
    }
}
