package org.arcref.explore;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.Setting;
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
 * Settings, in this order: {@code spa_maxblocksize} (1, 2 or 4 KiB, and {@code growth_window} twice it),
 * {@code arc_c_min} (8, 16 or 32 KiB), {@code arc_c_max} (1, 2 or 4 times it), {@code SPA_OLD_MAXBLOCKSIZE} (512 B,
 * 1 or 2 KiB), 1 to 4 sublists, a seed below 1000, the evictor run after each operation (two in three) or stepped,
 * and {@code arc_min_prefetch_ms} (10, 100 or 1000, and with it the uncached flush period); the rest are the
 * engine's defaults. Then the length (20 to 120 operations) and the number of keys read (12, 24 or 48), each drawn
 * even when the caller replaces it, so that what follows is the same.
 *
 * <p>Operations, drawn until the length is reached, weighted: 55 reads (a key below the key count; demand three
 * times in five, prefetch and prescient once each; a tenth of demand reads hold; one in six {@code uncached}), 7
 * releases of a held key, 4 writes of a fresh key (one in four {@code uncached}), 4 completions of a pending write
 * (one in five holds), 2 overwrites of a held key to a fresh key of the same type, 4 frees (of a pending write or a
 * read key), 10 ticks (1, 10, 63, 100 or 1000), 3 shrinks (0, 512, 4096 or {@code arc_c_max} bytes), 3 memory
 * changes (0, 1 MiB, 1 TiB), 3 reaps and 5 evictor steps; a draw whose operation has nothing to act on (a release
 * with nothing held, a read of a key being written) draws again. A key's type is its parity (odd keys are
 * metadata) and its size is fixed at its first use: 512 B or 1 KiB below a 2 KiB {@code spa_maxblocksize}, else
 * also 1.5, 2 KiB or {@code spa_maxblocksize}; a write is 512 B below a 2 KiB {@code spa_maxblocksize}, else 512 B,
 * 1 or 2 KiB. Each operation is applied to the
 * engine as it is drawn, so that a trace drawn on changed settings ({@code arc gen --set}) is valid or rejected at
 * once, naming the operation.
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
     *     under the changed settings (a block size above {@code spa_maxblocksize}, say)
     */
    public static RandomScenario.Generated generate(long seed, UnaryOperator<ConformanceSettings> given,
            Integer length, Integer keys) {
        if (keys != null) {
            RandomScenario.requireReadKeys(keys);
        }
        SplitMix64 r = new SplitMix64(seed);
        ConformanceSettings settings = given.apply(settings(r));
        int drawnLength = 20 + r.nextIndex(101);
        int drawnKeys = (int) Draws.pick(r, 12, 24, 48);
        return new RandomScenario.Generated(settings, new Draw(settings, r, keys != null ? keys : drawnKeys)
                .operations(length != null ? length : drawnLength));
    }

    private static ConformanceSettings settings(SplitMix64 r) {
        Map<Setting, Long> drawn = new EnumMap<>(Setting.class);
        long maxBlock = Draws.pick(r, 1024, 2048, 4096);
        long cMin = Draws.pick(r, 8, 16, 32) * 1024;
        drawn.put(Setting.SPA_MAXBLOCKSIZE, maxBlock);
        drawn.put(Setting.GROWTH_WINDOW, 2 * maxBlock);
        drawn.put(Setting.ARC_C_MIN, cMin);
        drawn.put(Setting.ARC_C_MAX, cMin * Draws.pick(r, 1, 2, 4));
        drawn.put(Setting.SPA_OLD_MAXBLOCKSIZE, Draws.pick(r, 512, 1024, 2048));
        drawn.put(Setting.SUBLISTS, 1L + r.nextIndex(4));
        drawn.put(Setting.RANDOM_SEED, (long) r.nextIndex(1000));
        drawn.put(Setting.EVICTOR_RUNS_AFTER_EACH_OPERATION, r.nextIndex(3) > 0 ? 1L : 0L);
        drawn.put(Setting.ARC_MIN_PREFETCH_MS, Draws.pick(r, 10, 100, 1000));
        return ConformanceSettings.defaults(ZfsEngine.V2_2_0).with(drawn);
    }

    /** One trace's operations as they are drawn: what is held and pending, each key's size, the engine. */
    private static final class Draw {
        private final SplitMix64 r;
        private final int keys;
        private final long maxBlock;
        private final long cMax;
        private final ArcOperations arc;
        private final Map<Long, Long> size = new TreeMap<>();
        private final Map<Long, Integer> holds = new TreeMap<>();
        private final TreeSet<Long> pending = new TreeSet<>();
        private final List<Operation> ops = new ArrayList<>();
        private long fresh = FIRST_FRESH_KEY;

        Draw(ConformanceSettings settings, SplitMix64 r, int keys) {
            this.r = r;
            this.keys = keys;
            this.maxBlock = settings.config().maxBlockSize();
            this.cMax = settings.config().cMax();
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
                long s = maxBlock >= 2048 ? Draws.pick(r, 512, 1024, 2048) : 512;
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
                return new Operation.Tick(Draws.pick(r, 1, 10, 63, 100, 1000));
            } else if (x < 89) {
                return new Operation.Shrink(Draws.pick(r, 0, 512, 4096, cMax));
            } else if (x < 92) {
                return new Operation.Memory(Draws.pick(r, 0, 1L << 20, 1L << 40));
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
            long s = size.computeIfAbsent(k, key -> maxBlock >= 2048 ? Draws.pick(r, 512, 1024, 1536, 2048, maxBlock)
                    : Draws.pick(r, 512, 1024));
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
