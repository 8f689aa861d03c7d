package org.arcref.explore;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Predicate;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
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
 * <p>{@link CheckKind#ORACLE}: the same, without quirk fixes (the oracle's {@code arc.c} is 2.1.1's as released).
 *
 * <p>{@link CheckKind#CANONICAL}: a capacity of 2–8 pages, pages {@code 0 … c·spread} for a spread of 1–4, and 1
 * to 300 requests, each a {@code tick 1} and a page read (the spec's page mode, {@link ZfsPageCache}).
 */
final class RandomScenario {

    /** Keys of read blocks; their size is a function of the key. */
    static final int READ_KEYS = 24;
    /** First key used for writes. */
    static final long FIRST_WRITE_KEY = 1000;
    /** The spec's free memory at the start: no memory pressure. */
    static final long INITIAL_FREE_MEMORY = Long.MAX_VALUE / 8;

    private RandomScenario() {
    }

    /**
     * @param kind the check
     * @param trySeed the try's seed
     * @return the configuration of the try: a small cache, or for {@link CheckKind#CANONICAL} the page-mode cache
     */
    static ArcConfig config(CheckKind kind, long trySeed) {
        return config(kind, new SplitMix64(trySeed));
    }

    /**
     * @param kind the check
     * @param trySeed the try's seed
     * @return the try's operations
     */
    static List<Operation> operations(CheckKind kind, long trySeed) {
        SplitMix64 rng = new SplitMix64(trySeed);
        ArcConfig config = config(kind, rng);
        return kind == CheckKind.CANONICAL ? pageRequests(capacityOf(config), rng) : specOperations(config, rng);
    }

    /** @return the capacity in pages of a page-mode configuration */
    static int capacityOf(ArcConfig pages) {
        return (int) (pages.cMax() / ZfsPageCache.PAGE_SIZE);
    }

    private static ArcConfig config(CheckKind kind, SplitMix64 rng) {
        return switch (kind) {
            case CANONICAL -> ArcConfig.pages(2 + rng.nextIndex(7), ZfsPageCache.PAGE_SIZE);
            case ORACLE -> smallConfig(rng).withFixes(EnumSet.noneOf(QuirkFix.class));
            default -> smallConfig(rng);
        };
    }

    private static ArcConfig smallConfig(SplitMix64 rng) {
        long cMin = pick(rng, 4096L, 6144L, 8192L);
        long extra = pick(rng, 0L, 4096L, 8192L);
        int sublists = 1 + rng.nextIndex(4);
        boolean auto = rng.nextIndex(2) == 0;
        EnumSet<QuirkFix> fixes = EnumSet.noneOf(QuirkFix.class);
        for (QuirkFix f : QuirkFix.values()) {
            if (rng.nextIndex(2) == 0) {
                fixes.add(f);
            }
        }
        Tunables tunables = Tunables.defaults().withEvictBatchLimit(pick(rng, 1, 2, 10))
                .withPDampenerDisable(rng.nextIndex(2) == 0).withOverflowShift(pick(rng, 8, 2))
                .withAbdScatterEnabled(rng.nextIndex(2) == 0);
        long sysFree = pick(rng, 0L, 16384L, 65536L);
        return ArcConfig.small(cMin, cMin + extra, 2048).withSublists(sublists).withEvictorRunsAfterEachOperation(auto)
                .withFixes(fixes).withTunables(tunables).withSysFree(sysFree).withSeed(rng.nextLong());
    }

    @SafeVarargs
    private static <T> T pick(SplitMix64 rng, T... choices) {
        return choices[rng.nextIndex(choices.length)];
    }

    /** @return the block size of a key: 512, 1024, 1536 or 2048 bytes */
    static long sizeOf(long key) {
        return 512 * (1 + Math.floorMod(key, 4));
    }

    private static List<Operation> specOperations(ArcConfig config, SplitMix64 rng) {
        ZfsArc spec = new ZfsArc(config, new AdjustableMemory(INITIAL_FREE_MEMORY));
        int length = 20 + rng.nextIndex(101);
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
                for (long k = 0; k < READ_KEYS; k++) {
                    candidates.add(k);
                }
                candidates.addAll(keys(s, h -> h.key() >= FIRST_WRITE_KEY && h.state() != ArcState.ANON));
                long key = candidates.get(rng.nextIndex(candidates.size()));
                int k = rng.nextIndex(10);
                ReadKind kind = k < 7 ? ReadKind.DEMAND : k < 9 ? ReadKind.PREFETCH : ReadKind.PRESCIENT_PREFETCH;
                long size = s.headers().stream().filter(h -> h.key() == key).findFirst().map(HeaderSnapshot::size)
                        .orElse(sizeOf(key));
                op = new Operation.Read(key, size, kind, kind == ReadKind.DEMAND && rng.nextIndex(5) == 0);
            } else if (choice < 8) {
                long key = nextWriteKey++;
                op = new Operation.Write(key, sizeOf(key));
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
                known.add((long) READ_KEYS - 1);
                op = new Operation.Free(known.get(rng.nextIndex(known.size())));
            } else if (choice < 14) {
                op = new Operation.Shrink(rng.nextIndex((16 << 10) + 1));
            } else if (choice < 16) {
                op = new Operation.Evict();
            } else if (choice < 17) {
                op = new Operation.Reap();
            } else if (choice < 19) {
                op = new Operation.Tick(rng.nextIndex(1501));
            } else {
                op = new Operation.Memory(rng.nextIndex(2) == 0 ? INITIAL_FREE_MEMORY : rng.nextIndex((128 << 10) + 1));
            }
            op.applyTo(spec);
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
