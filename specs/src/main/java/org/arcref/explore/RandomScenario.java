package org.arcref.explore;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsPageCache;

/**
 * The random configuration and operation sequence of one try, a function of its try seed only, so that a try
 * reproduces from its seed and a shrunk trace replays on the same configuration ({@link #config}).
 *
 * <p>Configurations ({@link CheckKind#INVARIANTS}, {@link CheckKind#DIFFERENTIAL}) are those of the spec's
 * invariant property: 4–16 KiB caches with 512 B–2 KiB blocks, 1–4 sublists, both evictor schedules, any subset
 * of quirk fixes, batch limits 1, 2 or 10, the {@code arc_p} dampener on or off, overflow shift 8 or 2, scatter
 * ABDs on or off, three {@code arc_sys_free} values and any seed. Operations (20 to 120) are drawn from the spec's
 * state as it runs, weighted 6 reads (of 24 keys or of written keys, with the cached size; demand 70 %, prefetch
 * 20 %, prescient 10 %; a fifth of demand reads hold), 2 writes, 2 completions, 1 release, 1 overwrite (under a new
 * write key), 1 free, 1 shrink, 2 evictor steps, 1 reap, 2 ticks, 1 memory change; completions, releases and
 * overwrites only when something is pending or held. The generator applies each operation
 * to a spec as it draws it, so a generated sequence is valid (the spec accepts every operation) by construction.
 *
 * <p>{@link CheckKind#ORACLE}: every header setting drawn over its valid range, edges weighted
 * ({@link RandomSettings}), without quirk fixes (the oracle's {@code arc.c} is 2.1.1's as released); then the length,
 * then four block sizes up to {@code spa_maxblocksize}, the key modulo 4 choosing one, with ticks, shrinks and memory
 * levels drawn to the edges of the settings ({@link Magnitudes.Wide}); the operations are drawn as above. The other
 * checks' operations have {@link Magnitudes.Small}'s sizes and amounts. {@link #generate} draws these tries as
 * conformance traces for {@code arc gen}, optionally with other settings, another length or another number of read
 * keys. The oracle check of zfs-2.2.0's engine draws {@link Random22Scenario}'s tries instead.
 *
 * <p>{@link CheckKind#CANONICAL}: a capacity of 2–8 pages, pages {@code 0 … c·spread} for a spread of 1–4, and 1
 * to 300 requests, each a {@code tick 1} and a page read (the spec's page mode, {@link ZfsPageCache}).
 */
public final class RandomScenario {

    /** Keys of read blocks; their size is a function of the key. */
    public static final int READ_KEYS = 24;
    /** First key used for writes. */
    public static final long FIRST_WRITE_KEY = 1000;
    /** The spec's free memory at the start: no memory pressure. */
    static final long INITIAL_FREE_MEMORY = Long.MAX_VALUE / 8;

    private RandomScenario() {
    }

    /**
     * @param kind the check
     * @param engine the engine of the oracle check's tries: zfs-2.2.0's draws {@link Random22Scenario}'s; the other
     *     checks' tries are zfs-2.1.1's whatever it is
     * @param trySeed the try's seed
     * @return the try's settings (for {@link CheckKind#ORACLE} drawn over their ranges; else a small cache, or for
     *     {@link CheckKind#CANONICAL} the page-mode cache, with {@link #INITIAL_FREE_MEMORY}) and its operations,
     *     valid on them by construction
     */
    static Generated of(CheckKind kind, ZfsEngine engine, long trySeed) {
        if (kind == CheckKind.ORACLE) {
            return generate(engine, trySeed, UnaryOperator.identity(), null, null);
        }
        SplitMix64 rng = new SplitMix64(trySeed);
        ConformanceSettings settings = new ConformanceSettings(config(kind, rng), INITIAL_FREE_MEMORY);
        if (kind == CheckKind.CANONICAL) {
            return new Generated(settings, pageRequests(capacityOf(settings.config()), rng));
        }
        return new Generated(settings, specOperations(settings, new Magnitudes.Small(), rng, drawLength(rng),
                READ_KEYS));
    }

    /**
     * The oracle check's try as a conformance trace ({@code arc gen}): its settings, which have no quirk fixes,
     * changed by {@code given}, then operations drawn as the try draws them but on the changed settings, so that the
     * spec accepts every one of them under exactly those settings. With {@code given} the identity and
     * {@code length} and {@code keys} {@code null} the trace is the try {@code of(ORACLE, engine, trySeed)}; with
     * another {@code length} the try's drawn length is replaced, so the first operations are still the try's.
     *
     * @param engine the engine: zfs-2.1.1's tries are drawn here, zfs-2.2.0's by {@link Random22Scenario}
     * @param trySeed the try's seed
     * @param given changes the drawn settings (the {@code --set} options)
     * @param length the number of operations, or {@code null} for the try's drawn length (20 to 120)
     * @param keys the number of keys read ({@code 0 … keys-1}), in [1, {@link #FIRST_WRITE_KEY}], or {@code null}
     *     for the try's ({@link #READ_KEYS} with zfs-2.1.1's engine, drawn with zfs-2.2.0's)
     * @return the settings and the operations
     * @throws IllegalArgumentException if {@code keys} is out of range, or the spec rejects a drawn operation
     *     under the changed settings (sizes and amounts are drawn from them)
     */
    public static Generated generate(ZfsEngine engine, long trySeed, UnaryOperator<ConformanceSettings> given,
            Integer length, Integer keys) {
        if (engine == ZfsEngine.V2_2_0) {
            return Random22Scenario.generate(trySeed, given, length, keys);
        }
        int readKeys = keys != null ? keys : READ_KEYS;
        requireReadKeys(readKeys);
        SplitMix64 rng = new SplitMix64(trySeed);
        ConformanceSettings settings = given.apply(RandomSettings.draw(ZfsEngine.V2_1_1, rng));
        int drawn = drawLength(rng); // drawn even when replaced, so that the operations that follow are the try's
        return new Generated(settings, specOperations(settings, Magnitudes.Wide.draw(settings, rng), rng,
                length != null ? length : drawn, readKeys));
    }

    /**
     * @param keys a number of read keys for {@link #generate}
     * @throws IllegalArgumentException naming {@code --keys}, the rule and the value unless it is in
     *     [1, {@link #FIRST_WRITE_KEY}]
     */
    public static void requireReadKeys(int keys) {
        if (keys < 1 || keys > FIRST_WRITE_KEY) {
            throw new IllegalArgumentException("--keys must be in [1, " + FIRST_WRITE_KEY + "] (keys from "
                    + FIRST_WRITE_KEY + " on are written ones), was " + keys);
        }
    }

    /**
     * A try's or a generated conformance trace's content.
     *
     * @param settings the settings the operations were drawn on
     * @param operations the operations, each accepted by the spec under {@code settings}
     */
    public record Generated(ConformanceSettings settings, List<Operation> operations) {

        /** @return the conformance trace: a {@code # conform:} line naming every setting, then the operations */
        public String text() {
            return ConformanceTrace.text(settings, operations);
        }
    }

    private static int drawLength(SplitMix64 rng) {
        return 20 + rng.nextIndex(101);
    }

    /** @return the capacity in pages of a page-mode configuration */
    static int capacityOf(ArcConfig pages) {
        return (int) (pages.cMax() / ZfsPageCache.PAGE_SIZE);
    }

    private static ArcConfig config(CheckKind kind, SplitMix64 rng) {
        return kind == CheckKind.CANONICAL ? ArcConfig.pages(2 + rng.nextIndex(7), ZfsPageCache.PAGE_SIZE)
                : smallConfig(rng);
    }

    private static ArcConfig smallConfig(SplitMix64 rng) {
        long cMin = Draws.pick(rng, 4096, 6144, 8192);
        long extra = Draws.pick(rng, 0, 4096, 8192);
        int sublists = 1 + rng.nextIndex(4);
        boolean auto = rng.nextIndex(2) == 0;
        EnumSet<QuirkFix> fixes = EnumSet.noneOf(QuirkFix.class);
        for (QuirkFix f : QuirkFix.of(ZfsEngine.V2_1_1)) {
            if (rng.nextIndex(2) == 0) {
                fixes.add(f);
            }
        }
        Tunables tunables = Tunables.defaults().withEvictBatchLimit((int) Draws.pick(rng, 1, 2, 10))
                .withPDampenerDisable(rng.nextIndex(2) == 0).withOverflowShift((int) Draws.pick(rng, 8, 2))
                .withAbdScatterEnabled(rng.nextIndex(2) == 0);
        long sysFree = Draws.pick(rng, 0, 16384, 65536);
        return ArcConfig.small(cMin, cMin + extra, 2048).withSublists(sublists).withEvictorRunsAfterEachOperation(auto)
                .withFixes(fixes).withTunables(tunables).withSysFree(sysFree).withSeed(rng.nextLong());
    }

    private static List<Operation> specOperations(ConformanceSettings settings, Magnitudes sizes, SplitMix64 rng,
            int length, int readKeys) {
        ZfsArc spec = new ZfsArc(settings.config(), settings.memory());
        long nextWriteKey = FIRST_WRITE_KEY;
        List<Operation> ops = new ArrayList<>();
        while (ops.size() < length) {
            ArcSnapshot s = spec.snapshot();
            List<Long> pending = keys(s, h -> h.state() == ArcState.ANON);
            List<Long> held = keys(s, h -> h.state() != ArcState.ANON && h.refcount() > 0);
            int choice = rng.nextIndex(20);
            Operation op;
            if (choice < 6) {
                List<Long> candidates = new ArrayList<>();
                for (long k = 0; k < readKeys; k++) {
                    candidates.add(k);
                }
                candidates.addAll(keys(s, h -> h.key() >= FIRST_WRITE_KEY && h.state() != ArcState.ANON));
                long key = candidates.get(rng.nextIndex(candidates.size()));
                int k = rng.nextIndex(10);
                ReadKind kind = k < 7 ? ReadKind.DEMAND : k < 9 ? ReadKind.PREFETCH : ReadKind.PRESCIENT_PREFETCH;
                long size = s.headers().stream().filter(h -> h.key() == key).findFirst().map(HeaderSnapshot::size)
                        .orElse(sizes.sizeOf(key));
                op = new Operation.Read(key, size, kind, kind == ReadKind.DEMAND && rng.nextIndex(5) == 0);
            } else if (choice < 8) {
                long key = nextWriteKey++;
                op = new Operation.Write(key, sizes.sizeOf(key));
            } else if (choice < 10) {
                if (pending.isEmpty()) {
                    continue;
                }
                op = new Operation.Complete(pending.get(rng.nextIndex(pending.size())), rng.nextIndex(4) == 0);
            } else if (choice < 12) {
                if (held.isEmpty()) {
                    continue;
                }
                long key = held.get(rng.nextIndex(held.size()));
                op = choice == 10 ? new Operation.Release(key) : new Operation.Overwrite(key, nextWriteKey++);
            } else if (choice < 13) {
                List<Long> known = keys(s, h -> true);
                known.add((long) readKeys - 1);
                op = new Operation.Free(known.get(rng.nextIndex(known.size())));
            } else if (choice < 14) {
                op = new Operation.Shrink(sizes.shrink(rng));
            } else if (choice < 16) {
                op = new Operation.Evict();
            } else if (choice < 17) {
                op = new Operation.Reap();
            } else if (choice < 19) {
                op = new Operation.Tick(sizes.tick(rng));
            } else {
                op = new Operation.Memory(sizes.memory(rng));
            }
            Draws.apply(spec, op, ops.size());
            ops.add(op);
        }
        return ops;
    }

    private static List<Operation> pageRequests(int capacity, SplitMix64 rng) {
        int keySpace = capacity * (1 + rng.nextIndex(4)) + 1;
        int length = 1 + rng.nextIndex(300);
        List<Operation> ops = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            ops.add(new Operation.Tick(1));
            ops.add(new Operation.Read(rng.nextIndex(keySpace), ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false));
        }
        return ops;
    }

    private static List<Long> keys(ArcSnapshot s, Predicate<HeaderSnapshot> filter) {
        List<Long> keys = new ArrayList<>();
        for (HeaderSnapshot h : s.headers()) {
            if (filter.test(h)) {
                keys.add(h.key());
            }
        }
        return keys;
    }
}
