package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * R10 for {@code overwrite}, the one operation that holds two hash locks: two threads overwriting crosswise
 * ({@code a} to {@code b} and {@code b} to {@code a}) must not deadlock, which they would if each took its own
 * key's lock first. Both keys are cached and held, so every call is rejected ({@code newKey} is cached), but only
 * after taking both locks; the state never changes.
 */
class OverwriteLockOrderTest {

    private static final int ROUNDS = 200_000;

    @Test
    @DisplayName("R10: crosswise overwrites take the two hash locks in one order and never deadlock")
    void crosswiseOverwritesDoNotDeadlock() throws InterruptedException {
        BufHashTable<Long> stripes = new BufHashTable<>(ArcOptions.ZFS_BUF_LOCKS, 0);
        long a = 1;
        long b = 2;
        while (stripes.lockFor(a) == stripes.lockFor(b)) {
            b++;
        }
        ReentrantLock[] ab = stripes.lockPairFor(a, b);
        assertNotSame(ab[0], ab[1], "the two keys need different stripes");
        try (ConcurrentArc<Long> arc = new ConcurrentArc<>(ArcConfig.small(8192, 8192, 2048), MemoryModel.plentiful(),
                ArcOptions.deterministic())) {
            arc.read(a, 512, ReadKind.DEMAND, true, k -> k);
            arc.read(b, 512, ReadKind.DEMAND, true, k -> k);
            ArcSnapshot before = arc.snapshot();
            AtomicReference<Throwable> unexpected = new AtomicReference<>();
            Thread forward = crosswise(arc, a, b, unexpected);
            Thread backward = crosswise(arc, b, a, unexpected);
            awaitBothOrDeadlock(forward, backward);
            assertNull(unexpected.get(), "only rejections expected");
            assertEquals(before, arc.snapshot(), "B1: every overwrite was rejected and changed nothing");
        }
    }

    /**
     * Waits until both threads end, or fails naming R10 as soon as the JVM finds them deadlocked on each other's
     * hash lock ({@link ThreadMXBean#findDeadlockedThreads()} sees {@code ReentrantLock} cycles), so a lock-order bug
     * is named within milliseconds, not found by waiting; the 30 s bound only ends a run that neither finishes nor
     * deadlocks.
     */
    private static void awaitBothOrDeadlock(Thread forward, Thread backward) throws InterruptedException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (forward.isAlive() || backward.isAlive()) {
            long[] deadlocked = threads.findDeadlockedThreads();
            if (deadlocked != null) {
                StringBuilder cycle = new StringBuilder();
                for (ThreadInfo t : threads.getThreadInfo(deadlocked, true, true)) {
                    cycle.append(t);
                }
                throw new PropertyViolation(Property.R10, "crosswise overwrites deadlocked on each other's hash lock",
                        cycle.toString());
            }
            if (System.nanoTime() > deadline) {
                throw new PropertyViolation(Property.R10, "crosswise overwrites still running after 30 s", "");
            }
            forward.join(10);
        }
    }

    private static Thread crosswise(ConcurrentArc<Long> arc, long key, long newKey,
            AtomicReference<Throwable> unexpected) {
        Thread t = new Thread(() -> {
            for (int i = 0; i < ROUNDS; i++) {
                try {
                    arc.overwrite(key, newKey, -1L);
                } catch (IllegalArgumentException rejected) {
                    continue;
                } catch (RuntimeException | Error e) {
                    unexpected.compareAndSet(null, e);
                    return;
                }
                unexpected.compareAndSet(null, new AssertionError("overwrite " + key + " " + newKey + " accepted"));
                return;
            }
        }, "overwrite " + key + " " + newKey);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
