package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * L1 in stepped mode with several calling threads: every waiter is released by some thread's step, and none is
 * reported as a lost wakeup. Four threads read new 4 KiB blocks into a 16 KiB cache with the deterministic
 * options, so most allocations overflow it severely and each thread steps the evictor for its own waiter while the
 * others do the same; before the fix a waiter released by another thread's step was reported as "lost wakeup" in
 * 28 to 70 of {@value #ROUNDS} rounds in the review that found it, and in 21 (36 reads) in the run before the fix
 * ({@code docs/concurrency-checks.md}).
 */
class SteppedEvictorThreadsTest {

    private static final int ROUNDS = 100;
    private static final int THREADS = 4;
    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096);

    @Test
    @DisplayName("L1: stepped mode with four threads releases every waiter and reports no false lost wakeup")
    void severalThreadsSteppingReportNoLostWakeup() throws InterruptedException {
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < ROUNDS; round++) {
            ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(),
                    ArcOptions.deterministic());
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long first = 1_000L * t;
                int r = round;
                Thread thread = new Thread(() -> {
                    try {
                        for (long key = first; key < first + 64; key++) {
                            arc.read(key, 4096, ReadKind.DEMAND, false, k -> k);
                        }
                    } catch (RuntimeException e) {
                        failures.add("round " + r + ": " + e);
                    }
                }, "stepper-" + t);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            arc.close();
        }
        long failedRounds = failures.stream().map(f -> f.substring(0, f.indexOf(':'))).distinct().count();
        assertEquals(0, failedRounds, "L1: reads failed in " + failedRounds + " of " + ROUNDS + " rounds ("
                + failures.size() + " reads), the first: " + failures.peek());
    }
}
