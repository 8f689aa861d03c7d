package org.arcref.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.arcref.arc.ConcurrentArc;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ReadKind;

/**
 * One soak thread's random operations on a cache much smaller than the working set: reads of 2048 keys (70 % of
 * them from the hottest 256; demand, prefetch and prescient, a quarter of demand reads with a hold, at most 8 held),
 * reads of written keys (at most 4096 remembered, so memory stays bounded however long it runs), writes of new
 * keys, completions, releases, overwrites of held blocks, frees, shrinks of up to 64 KiB and ticks.
 * Every read must return its key's value (N1). Before returning, it releases and completes everything it started.
 */
final class SoakWorker {

    private static final int READ_KEYS = 2048;
    /** How many written keys a worker remembers for reads: the newest, then random ones replaced. */
    private static final int WRITTEN_KEYS = 4096;

    private final ConcurrentArc<Long> arc;
    private final AtomicLong ops;
    private final AtomicLong longest;
    private final List<Long> holds = new ArrayList<>();
    private final List<Long> pending = new ArrayList<>();
    private final long[] written = new long[WRITTEN_KEYS];
    private int writtenCount;
    private long nextWriteKey;

    SoakWorker(ConcurrentArc<Long> arc, long firstWriteKey, AtomicLong ops, AtomicLong longest) {
        this.arc = arc;
        this.nextWriteKey = firstWriteKey;
        this.ops = ops;
        this.longest = longest;
    }

    /** @param key a block identity @return the only value that block ever has */
    static long valueOf(long key) {
        return key * 7919 + 3;
    }

    /** @param key a block identity @return its size: 512 B to 4 KiB */
    static long sizeOf(long key) {
        return 512L * (1 + Math.floorMod(key, 8));
    }

    void run(long deadline, BooleanSupplier stop) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        while (deadline - System.nanoTime() > 0 && !stop.getAsBoolean()) {
            timed(() -> step(r));
        }
        for (long key : holds) {
            timed(() -> arc.release(key));
        }
        for (long key : pending) {
            timed(() -> arc.completeWrite(key, false));
        }
    }

    private void step(ThreadLocalRandom r) {
        int choice = r.nextInt(100);
        if (choice < 60) {
            long key = r.nextInt(10) < 7 ? r.nextInt(READ_KEYS / 8) : r.nextInt(READ_KEYS);
            ReadKind kind = choice < 50 ? ReadKind.DEMAND : choice < 57 ? ReadKind.PREFETCH
                    : ReadKind.PRESCIENT_PREFETCH;
            boolean hold = kind == ReadKind.DEMAND && holds.size() < 8 && r.nextInt(4) == 0;
            read(key, kind, hold);
        } else if (choice < 68 && writtenCount > 0) {
            long key = written[r.nextInt(writtenCount)];
            read(key, ReadKind.DEMAND, false);
        } else if (choice < 76) {
            long key = nextWriteKey++;
            arc.write(key, sizeOf(key), valueOf(key));
            pending.add(key);
        } else if (choice < 84 && !pending.isEmpty()) {
            long key = pending.remove(r.nextInt(pending.size()));
            arc.completeWrite(key, false);
            if (writtenCount < WRITTEN_KEYS) {
                written[writtenCount++] = key;
            } else {
                written[r.nextInt(WRITTEN_KEYS)] = key;
            }
        } else if (choice < 88 && !holds.isEmpty()) {
            arc.release(holds.remove(r.nextInt(holds.size())));
        } else if (choice < 90 && !holds.isEmpty()) {
            overwrite(holds.remove(r.nextInt(holds.size())));
        } else if (choice < 95) {
            arc.free(r.nextInt(READ_KEYS));
        } else if (choice < 97) {
            arc.reduceTargetSize(r.nextLong(64L << 10));
        } else {
            arc.tick(r.nextInt(200));
        }
    }

    /**
     * Overwrites a held block under the next write key of its size (an overwrite keeps the block's size, and reads
     * of written keys ask for {@link #sizeOf} their key).
     */
    private void overwrite(long key) {
        long newKey = nextWriteKey + Math.floorMod(key - nextWriteKey, 8);
        nextWriteKey = newKey + 1;
        arc.overwrite(key, newKey, valueOf(newKey));
        pending.add(newKey);
    }

    private void read(long key, ReadKind kind, boolean hold) {
        Long value = arc.read(key, sizeOf(key), kind, hold, SoakWorker::valueOf).value();
        if (value != valueOf(key)) {
            throw new PropertyViolation(Property.N1, "read of key " + key + " returned " + value, "");
        }
        if (hold) {
            holds.add(key);
        }
    }

    private void timed(Runnable op) {
        long start = System.nanoTime();
        op.run();
        longest.accumulateAndGet(System.nanoTime() - start, Math::max);
        ops.incrementAndGet();
    }
}
