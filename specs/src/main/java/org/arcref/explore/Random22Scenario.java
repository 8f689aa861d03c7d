package org.arcref.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsEngine;

/**
 * The random settings and operations of one try of zfs-2.2.0's engine, data and metadata mixed, a function of its
 * seed only: the oracle check's tries with {@code arc explore --checks oracle --zfs 2.2.0} (or 2.2.11), the traces
 * of {@code arc gen --zfs 2.2.0}, and the random campaign of the oracle module.
 *
 * <h2>What is drawn</h2>
 * Settings: every setting of the engine over its valid range, edges weighted ({@link RandomSettings}: with
 * {@code growth_window} twice {@code spa_maxblocksize} and {@code zfs_abd_scatter_min_size} 1536, as 2.2's harness
 * requires). Then the length (20 to 120 operations) and the number of keys read (12, 24 or 48), each drawn even when
 * the caller replaces it, so that what follows is the same; then four block sizes up to {@code spa_maxblocksize}
 * ({@link Magnitudes.Wide}).
 *
 * <p>Operations, drawn until the length is reached, weighted: 55 reads (a key below the key count; demand three
 * times in five, prefetch and prescient once each; a tenth of demand reads hold; one in six {@code uncached}), 7
 * releases of a held key, 4 writes of a fresh key (one in four {@code uncached}), 4 completions of a pending write
 * (one in five holds), 2 overwrites of a held key to a fresh key of the same type, 4 frees (of a pending write or a
 * read key), 10 ticks, 3 shrinks, 3 memory changes (their amounts drawn to the edges of the settings:
 * {@link Magnitudes.Wide}), 3 reaps and 5 evictor steps; a draw whose operation has nothing to act on (a release
 * with nothing held, a read of a key being written) draws again. A key's type is its parity (odd keys are
 * metadata) and its size is fixed at its first use: the block size of its key modulo 4; an overwrite's new key
 * keeps the overwritten key's size. Each operation is applied to the engine as it is drawn, so that a trace drawn on
 * changed settings ({@code arc gen --set}) follows them (its sizes and amounts drawn from them) or is rejected at once,
 * naming the operation.
 */
public final class Random22Scenario {

    /** Keys of fresh writes and overwrites start here. */
    private static final long FIRST_FRESH_KEY = 1000;

    private Random22Scenario() {
    }

    /**
     * @param seed the try's seed
     * @param given changes the drawn settings (the {@code --set} options); the operations are drawn on the changed
     *     ones
     * @param length the number of operations, or {@code null} for the drawn length (20 to 120)
     * @param keys the number of keys read ({@code 0 … keys-1}), in [1, 1000], or {@code null} for the drawn number
     * @return the settings, zfs-2.2.0's engine's without quirk fixes but those {@code given} sets, and the operations
     * @throws IllegalArgumentException if {@code keys} is out of range, or the engine rejects a drawn operation
     *     under the changed settings
     */
    public static RandomScenario.Generated generate(long seed, UnaryOperator<ConformanceSettings> given,
            Integer length, Integer keys) {
        if (keys != null) {
            RandomScenario.requireReadKeys(keys);
        }
        SplitMix64 r = new SplitMix64(seed);
        ConformanceSettings settings = given.apply(RandomSettings.draw(ZfsEngine.V2_2_0, r));
        int drawnLength = 20 + r.nextIndex(101);
        int drawnKeys = (int) Draws.pick(r, 12, 24, 48);
        return new RandomScenario.Generated(settings, new Draw(settings, Magnitudes.Wide.draw(settings, r), r,
                keys != null ? keys : drawnKeys).operations(length != null ? length : drawnLength));
    }

    /** One trace's operations as they are drawn: what is held and pending, each key's size, the engine. */
    private static final class Draw {
        private final SplitMix64 r;
        private final int keys;
        private final Magnitudes magnitudes;
        private final ArcOperations arc;
        private final Map<Long, Long> size = new TreeMap<>();
        private final Map<Long, Integer> holds = new TreeMap<>();
        private final TreeSet<Long> pending = new TreeSet<>();
        private final List<Operation> ops = new ArrayList<>();
        private long fresh = FIRST_FRESH_KEY;

        Draw(ConformanceSettings settings, Magnitudes magnitudes, SplitMix64 r, int keys) {
            this.r = r;
            this.keys = keys;
            this.magnitudes = magnitudes;
            this.arc = settings.newArc(evicted -> { });
        }

        List<Operation> operations(int length) {
            while (ops.size() < length) {
                Operation op = next();
                if (op != null) {
                    Draws.apply(arc, op, ops.size());
                    ops.add(op);
                }
            }
            return ops;
        }

        /** @return the drawn operation, or null when it has nothing to act on */
        private Operation next() {
            int x = r.nextIndex(100);
            if (x < 55) {
                return read();
            } else if (x < 62) {
                return holds.isEmpty() ? null : new Operation.Release(dropHold());
            } else if (x < 66) {
                long k = fresh++;
                long s = magnitudes.sizeOf(k);
                size.put(k, s);
                pending.add(k);
                return new Operation.Write(k, s, typeOf(k), r.nextIndex(4) == 0);
            } else if (x < 70) {
                if (pending.isEmpty()) {
                    return null;
                }
                long k = new ArrayList<>(pending).get(r.nextIndex(pending.size()));
                pending.remove(k);
                boolean hold = r.nextIndex(5) == 0;
                if (hold) {
                    holds.merge(k, 1, Integer::sum);
                }
                return new Operation.Complete(k, hold);
            } else if (x < 72) {
                return holds.isEmpty() ? null : overwrite();
            } else if (x < 76) {
                List<Long> candidates = new ArrayList<>(pending);
                for (long k = 0; k < keys; k++) {
                    candidates.add(k);
                }
                long k = candidates.get(r.nextIndex(candidates.size()));
                pending.remove(k);
                return new Operation.Free(k);
            } else if (x < 86) {
                return new Operation.Tick(magnitudes.tick(r));
            } else if (x < 89) {
                return new Operation.Shrink(magnitudes.shrink(r));
            } else if (x < 92) {
                return new Operation.Memory(magnitudes.memory(r));
            } else if (x < 95) {
                return new Operation.Reap();
            }
            return new Operation.Evict();
        }

        private Operation read() {
            long k = r.nextIndex(keys);
            if (pending.contains(k)) {
                return null;
            }
            long s = size.computeIfAbsent(k, magnitudes::sizeOf);
            int kind = r.nextIndex(5);
            ReadKind readKind = kind < 3 ? ReadKind.DEMAND : kind == 3 ? ReadKind.PREFETCH
                    : ReadKind.PRESCIENT_PREFETCH;
            boolean hold = readKind == ReadKind.DEMAND && r.nextIndex(10) == 0;
            boolean uncached = r.nextIndex(6) == 0;
            if (hold) {
                holds.merge(k, 1, Integer::sum);
            }
            return new Operation.Read(k, s, readKind, hold, typeOf(k), uncached);
        }

        private Operation overwrite() {
            long k = dropHold();
            long n = fresh++;
            if (n % 2 != k % 2) {
                n = fresh++;
            }
            size.put(n, size.get(k));
            pending.add(n);
            return new Operation.Overwrite(k, n);
        }

        private long dropHold() {
            List<Long> held = new ArrayList<>(holds.keySet());
            long k = held.get(r.nextIndex(held.size()));
            if (holds.merge(k, -1, Integer::sum) == 0) {
                holds.remove(k);
            }
            return k;
        }
    }

    private static BufType typeOf(long key) {
        return key % 2 == 1 ? BufType.METADATA : BufType.DATA;
    }
}
