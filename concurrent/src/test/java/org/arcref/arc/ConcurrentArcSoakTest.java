package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.StateSnapshot;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * N1 and L1 under concurrency: four threads run random reads (all kinds, with holds), writes, completions,
 * releases, frees, shrinks and ticks on a cache much smaller than the working set, with the evict zthr running,
 * for {@value #DEFAULT_SECONDS} s (system property {@code arc.soak.seconds}). Every read must return its key's
 * value (N1), no operation may throw, and no operation may take more than 5 s, which bounds every wait for
 * eviction (L1). After {@link ConcurrentArc#close()} (quiescence), {@code arc_size} must equal the sum of the
 * state sizes and the bytes the headers hold, and each state's sizes the sums over its headers (N1, R4).
 */
class ConcurrentArcSoakTest {

    static final int DEFAULT_SECONDS = 20;
    private static final int THREADS = 4;
    private static final int READ_KEYS = 2048;
    private static final long MAX_OP_NANOS = TimeUnit.SECONDS.toNanos(5);

    static long valueOf(long key) {
        return key * 7919 + 3;
    }

    static long sizeOf(long key) {
        return 512L * (1 + Math.floorMod(key, 8));
    }

    @Test
    @DisplayName("N1, L1: accounting adds up and no wait exceeds 5 s after a concurrent soak")
    void soak() throws InterruptedException {
        long seconds = Long.getLong("arc.soak.seconds", DEFAULT_SECONDS);
        ArcConfig config = ArcConfig.small(256L << 10, 512L << 10, 4096)
                .withSublists(ConcurrentArc.defaultSublists());
        ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.zfs());
        Soak soak = run(arc, TimeUnit.SECONDS.toNanos(seconds));
        ArcSnapshot s = soak.snapshot();
        System.out.printf("soak: %d threads, %d s, %d operations, %d evictions, %d evictor runs, %d eviction waits,"
                        + " %d mutex misses, longest operation %.1f ms, arc_c %d, arc_size %d%n", THREADS, seconds,
                soak.ops(), s.stats().get(ArcStat.EVICTIONS), s.stats().get(ArcStat.EVICTOR_RUNS),
                s.stats().get(ArcStat.EVICT_WAITS), s.stats().get(ArcStat.MUTEX_MISS),
                soak.longestOpNanos() / 1e6, s.c(), s.size());
        soak.rethrowFailure();
        assertTrue(soak.longestOpNanos() < MAX_OP_NANOS, "L1: an operation took "
                + soak.longestOpNanos() / 1e6 + " ms");
        assertTrue(s.stats().get(ArcStat.EVICTIONS) > 0 && s.stats().get(ArcStat.EVICT_WAITS) > 0,
                "the soak must evict and make threads wait: " + s.stats());
        assertAccountingAddsUp(s);
        assertEquals(0, arc.sizeAggsum().value() - s.size(), "arc_size changed after close");
    }

    /** What {@link #run} leaves: the snapshot taken after {@code close()} (quiescence) and the workers' record. */
    record Soak(ArcSnapshot snapshot, long ops, long longestOpNanos, List<Throwable> failures) {
        void rethrowFailure() {
            if (!failures.isEmpty()) {
                throw new AssertionError("an operation failed: " + failures.get(0), failures.get(0));
            }
        }
    }

    /**
     * The soak's workload: {@value #THREADS} threads of random operations on {@code arc} for {@code nanos}, each
     * releasing and completing what it started; then {@code close()} and a snapshot at quiescence.
     *
     * @throws AssertionError if a thread is still running 30 s after the deadline (an operation hangs, L1)
     */
    static Soak run(ConcurrentArc<Long> arc, long nanos) throws InterruptedException {
        AtomicLong ops = new AtomicLong();
        AtomicLong longestOpNanos = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long deadline = System.nanoTime() + nanos;
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long firstWriteKey = 1_000_000L * (t + 1);
            Thread thread = new Thread(() -> {
                try {
                    new Worker(arc, firstWriteKey, ops, longestOpNanos).run(deadline);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "soak-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.NANOSECONDS.toMillis(nanos) + TimeUnit.SECONDS.toMillis(30));
            assertTrue(!thread.isAlive(), thread.getName() + " still running: an operation hangs (L1)");
        }
        arc.close();
        return new Soak(arc.snapshot(), ops.get(), longestOpNanos.get(), List.copyOf(failures));
    }

    @Test
    @DisplayName("L1: close() releases every eviction waiter and later operations fail clearly")
    void closeReleasesEveryWaiter() throws InterruptedException {
        ArcConfig config = ArcConfig.small(64L << 10, 64L << 10, 4096).withSublists(ConcurrentArc.defaultSublists());
        ConcurrentArc<Long> arc = new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.zfs());
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        AtomicLong rejectedAfterClose = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long first = 1_000_000L * t;
            Thread thread = new Thread(() -> {
                try {
                    for (long key = first; ; key++) {
                        arc.read(key, 4096, ReadKind.DEMAND, key % 3 == 0, ConcurrentArcSoakTest::valueOf);
                    }
                } catch (IllegalStateException e) {
                    if (e.getMessage().equals("ConcurrentArc must be open, was closed")) {
                        rejectedAfterClose.incrementAndGet();
                    } else {
                        unexpected.add(e);
                    }
                } catch (Throwable e) {
                    unexpected.add(e);
                }
            }, "close-" + t);
            threads.add(thread);
            thread.start();
        }
        Thread.sleep(1000);
        long waits = arc.stat(ArcStat.EVICT_WAITS);
        arc.close();
        for (Thread thread : threads) {
            thread.join(5000);
            assertTrue(!thread.isAlive(), thread.getName() + " did not return within 5 s of close() (L1)");
        }
        System.out.printf("close: %d eviction waits before close, %d threads rejected after close%n", waits,
                rejectedAfterClose.get());
        assertTrue(unexpected.isEmpty(), "unexpected failure: " + unexpected.peek());
        assertEquals(THREADS, rejectedAfterClose.get());
        assertTrue(waits > 0, "the threads must have waited for eviction");
    }

    /** N1 and R4 on a quiescent snapshot. */
    static void assertAccountingAddsUp(ArcSnapshot s) {
        Map<ArcState, long[]> sums = new EnumMap<>(ArcState.class);
        for (ArcState st : ArcState.values()) {
            sums.put(st, new long[2]);
        }
        long resident = 0;
        for (HeaderSnapshot h : s.headers()) {
            long accounted = h.state().isGhost() ? h.size() : h.hasData() ? h.size() * Math.max(1, h.refcount()) : 0;
            sums.get(h.state())[0] += accounted;
            if (h.linked()) {
                sums.get(h.state())[1] += accounted;
            }
            if (h.hasData()) {
                resident += accounted;
            }
        }
        long stateTotal = 0;
        for (ArcState st : ArcState.values()) {
            StateSnapshot ss = s.state(st);
            assertEquals(sums.get(st)[0], ss.size(), "R4: size of " + st.zfsName());
            assertEquals(sums.get(st)[1], ss.evictableSize(), "R4: evictable size of " + st.zfsName());
            if (!st.isGhost()) {
                stateTotal += ss.size();
            }
        }
        assertEquals(stateTotal, s.size(), "N1: arc_size equals the sum of the state sizes");
        assertEquals(resident, s.size(), "N1: arc_size equals the bytes the headers hold");
    }

    /** One thread's random operations; it releases and completes everything it started before returning. */
    private static final class Worker {
        private final ConcurrentArc<Long> arc;
        private final AtomicLong ops;
        private final AtomicLong longest;
        private final List<Long> holds = new ArrayList<>();
        private final List<Long> pending = new ArrayList<>();
        private final List<Long> written = new ArrayList<>();
        private long nextWriteKey;

        Worker(ConcurrentArc<Long> arc, long firstWriteKey, AtomicLong ops, AtomicLong longest) {
            this.arc = arc;
            this.nextWriteKey = firstWriteKey;
            this.ops = ops;
            this.longest = longest;
        }

        void run(long deadline) {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            while (System.nanoTime() < deadline) {
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
            } else if (choice < 68 && !written.isEmpty()) {
                long key = written.get(r.nextInt(written.size()));
                read(key, ReadKind.DEMAND, false);
            } else if (choice < 76) {
                long key = nextWriteKey++;
                arc.write(key, sizeOf(key), valueOf(key));
                pending.add(key);
            } else if (choice < 84 && !pending.isEmpty()) {
                long key = pending.remove(r.nextInt(pending.size()));
                arc.completeWrite(key, false);
                written.add(key);
            } else if (choice < 90 && !holds.isEmpty()) {
                arc.release(holds.remove(r.nextInt(holds.size())));
            } else if (choice < 95) {
                arc.free(r.nextInt(READ_KEYS));
            } else if (choice < 97) {
                arc.reduceTargetSize(r.nextLong(64L << 10));
            } else {
                arc.tick(r.nextInt(200));
            }
        }

        private void read(long key, ReadKind kind, boolean hold) {
            Long value = arc.read(key, sizeOf(key), kind, hold, ConcurrentArcSoakTest::valueOf).value();
            if (value != valueOf(key)) {
                throw new AssertionError("N1: read of key " + key + " returned " + value);
            }
            if (hold) {
                holds.add(key);
            }
        }

        private void timed(Runnable op) {
            long start = System.nanoTime();
            op.run();
            long took = System.nanoTime() - start;
            longest.accumulateAndGet(took, Math::max);
            ops.incrementAndGet();
        }
    }
}
