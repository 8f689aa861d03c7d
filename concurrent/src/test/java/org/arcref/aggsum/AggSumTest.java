package org.arcref.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import java.util.function.Predicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AggSumTest {

    /** Checks A1 and A2 against the exact value {@code v}; call only while no other thread uses {@code sum}. */
    static void assertInvariants(AggSum sum, long v, String where) {
        long lowerGap = 0;
        long upperGap = 0;
        for (AggSumBucket b : sum.buckets) {
            assertTrue(Math.abs(b.delta) <= b.borrowed, where + ": A1 |delta| <= borrowed, was " + b.delta
                    + " and " + b.borrowed);
            lowerGap += b.delta + b.borrowed;
            upperGap += b.borrowed - b.delta;
        }
        assertEquals(v - lowerGap, sum.lowerBound(), where + ": A2 lower = V - sum(d + B)");
        assertEquals(v + upperGap, sum.upperBound(), where + ": A2 upper = V + sum(B - d)");
    }

    @Test
    @DisplayName("A6: the first add borrows 16 x |delta| and moves both bounds; a covered add stays in the bucket")
    void slowPathBorrowsThenFastPathStaysInTheBucket() {
        AggSum sum = AggSum.create(1000, AggSumLayout.singleBucket());
        sum.add(10);
        assertEquals(1000 + 10 - 160, sum.lowerBound());
        assertEquals(1000 + 10 + 160, sum.upperBound());
        sum.add(-150);
        assertEquals(1000 + 10 - 160, sum.lowerBound(), "a fast-path add leaves the core untouched");
        assertEquals(-150, sum.buckets[0].delta);
        assertEquals(new AggSumCounters(1, 1, 0, 0, 0), sum.counters());
        assertInvariants(sum, 860, "after two adds");
    }

    @Test
    @DisplayName("A6: a slow path with a smaller delta shrinks the borrow by a quarter of the excess")
    void slowPathWithSmallerDeltaShrinksTheBorrow() {
        AggSum sum = AggSum.create(0, AggSumLayout.singleBucket());
        sum.add(200);
        sum.add(3190);
        sum.add(100);
        assertEquals(3200 - 400, sum.buckets[0].borrowed);
        assertEquals(0, sum.buckets[0].delta, "the slow path folds the bucket's delta into the core");
        assertInvariants(sum, 3490, "after the shrink");
    }

    /**
     * V stays >= 0: with a negative V the C code's unsigned upper bound is no bound at all (an accounting
     * underflow), which negativeValueComparesAsHugeUnsigned covers separately.
     */
    @Test
    @DisplayName("A1, A2, A4: random single-threaded adds, values and compares keep the invariants and are exact")
    void randomSequentialOperationsKeepTheInvariants() {
        for (long seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            AggSum sum = AggSum.create(random.nextLong(0, 1000), new AggSumLayout(random.nextInt(1, 4),
                    random.nextInt(0, 3)));
            long v = sum.lowerBound();
            for (int step = 0; step < 200; step++) {
                String where = "seed " + seed + " step " + step;
                int op = random.nextInt(10);
                if (op < 7) {
                    long delta = random.nextLong(-Math.min(v, 5000), 5000);
                    sum.add(delta);
                    v += delta;
                } else if (op < 8) {
                    assertEquals(v, sum.value(), where + ": A4 value is exact");
                    assertEquals(sum.lowerBound(), sum.upperBound(), where + ": A4 value leaves lower == upper");
                } else {
                    long target = v + random.nextLong(-3, 4);
                    assertEquals(Integer.signum(Long.compareUnsigned(v, target)), sum.compare(target),
                            where + ": A4 compare(" + target + ") is the exact unsigned sign");
                }
                assertInvariants(sum, v, where);
            }
        }
    }

    @Test
    @DisplayName("A4: compare flushes buckets only until the sign is decided")
    void compareStopsFlushingOnceDecided() throws Exception {
        AggSum sum = sumWithTwoBorrowingBuckets();
        long v = exactValueOf(sum);
        int borrowing = bucketsWithBorrow(sum);
        AggSumBucket first = firstBucketWithBorrow(sum);
        long upperAfterFirstFold = sum.upperBound() + first.delta - first.borrowed;
        long target = upperAfterFirstFold + 1;
        assertTrue(Long.compareUnsigned(sum.upperBound(), target) >= 0 && sum.lowerBound() < target,
                "the lock-free pre-check must not decide: " + sum + ", target " + target);
        assertEquals(-1, sum.compare(target));
        assertEquals(1, sum.counters().bucketsFlushed(), "folding the first bucket decides that V < target");
        assertEquals(borrowing - 1, bucketsWithBorrow(sum), "the other buckets keep their borrow");
        assertEquals(v, sum.value());
        assertEquals(0, bucketsWithBorrow(sum), "A4: value leaves every bucket empty");
    }

    @Test
    @DisplayName("a.7: the final test has no lower > 0 guard, so a negative value compares as a huge unsigned one")
    void negativeValueComparesAsHugeUnsigned() {
        AggSum sum = AggSum.exact(-5);
        assertEquals(1, sum.compare(3));
        assertEquals(0, sum.compare(-5));
        assertEquals(-1, sum.compare(-4));
    }

    @Test
    @DisplayName("D1 support: an exact aggsum never borrows; its bounds always equal its value")
    void exactModeNeverBorrows() {
        AggSum sum = AggSum.exact(7);
        sum.add(5);
        sum.add(-20);
        assertEquals(-8, sum.lowerBound());
        assertEquals(-8, sum.upperBound());
        assertEquals(new AggSumCounters(0, 2, 0, 0, 0), sum.counters());
        assertTrue(sum.isExact());
    }

    @Test
    @DisplayName("A2, A4, A5: concurrent adds lose nothing and the bounds enclose the value read afterwards")
    void concurrentAddsLoseNothing() throws Exception {
        AggSum sum = AggSum.create(0, new AggSumLayout(2, 0));
        long v = addBalancedConcurrently(sum, 4, 20_000, 100, 1000, sum::compare);
        assertTrue(sum.lowerBound() <= v && v <= sum.upperBound(), "A5 at quiescence: " + sum);
        assertInvariants(sum, v, "at quiescence");
        assertEquals(v, sum.value());
    }

    @Test
    @DisplayName("A6: a new delta exactly at either end of the borrow, -B or B, stays on the fast path")
    void fastPathIncludesBothEndsOfTheBorrow() {
        AggSum sum = AggSum.create(1000, AggSumLayout.singleBucket());
        sum.add(10);
        assertEquals(160, sum.buckets[0].borrowed);
        sum.add(160);
        assertEquals(new AggSumCounters(1, 1, 0, 0, 0), sum.counters(), "delta + d == B is within the borrow");
        sum.add(-320);
        assertEquals(new AggSumCounters(2, 1, 0, 0, 0), sum.counters(), "delta + d == -B is within the borrow");
        assertEquals(-160, sum.buckets[0].delta);
        assertInvariants(sum, 850, "after adds to both ends of the borrow");
    }

    /**
     * aggsum.c 218 and 221: {@code aggsum_compare} answers from the lock-free bounds only when the upper bound is
     * strictly below the target or a positive lower bound strictly above it. By hand, one bucket, shift 0, from 1000:
     * {@code add(10)} takes the slow path (175-176: 0 + 10 > borrowed 0), borrows 10 << 4 = 160 (186-191) and stores
     * lower = 1000 + 10 - 160 = 850, upper = 1000 + 10 + 160 = 1170 (199-202); then {@code add(160)} stays in the
     * bucket (0 + 160 <= 160), so V = 1170 = upper, or {@code add(-160)} (0 - 160 >= -160), so V = 850 = lower. A
     * bound equal to the target decides nothing: compare takes the lock, folds the bucket (230-235) and returns 0
     * (244).
     */
    @Test
    @DisplayName("A4: compare answers from a lock-free bound only when it is strictly beyond the target")
    void aBoundEqualToTheTargetIsNotDecisive() {
        AggSum atUpper = AggSum.create(1000, AggSumLayout.singleBucket());
        atUpper.add(10);
        atUpper.add(160);
        assertEquals(1170, atUpper.upperBound());
        assertEquals(0, atUpper.compare(1170), "upper bound == target == V: compare must fold, not answer -1");
        assertEquals(new AggSumCounters(1, 1, 0, 1, 1), atUpper.counters(), "one compare, which folded the bucket");

        AggSum atLower = AggSum.create(1000, AggSumLayout.singleBucket());
        atLower.add(10);
        atLower.add(-160);
        assertEquals(850, atLower.lowerBound());
        assertEquals(0, atLower.compare(850), "lower bound == target == V: compare must fold, not answer 1");
        assertEquals(new AggSumCounters(1, 1, 0, 1, 1), atLower.counters(), "one compare, which folded the bucket");
    }

    /**
     * The bucket choice (implementation overview, "Buckets"): a thread whose home bucket's lock is taken moves to
     * the next bucket, the last one wrapping to bucket 0. One thread of a single-thread executor adds to a
     * three-bucket aggsum; each round the test holds the thread's current home bucket and checks that the add
     * lands on the next one, so three rounds visit every bucket and cross the wrap once. {@code value()} empties
     * the buckets between rounds, so the bucket that has borrowed afterwards is the one the add used.
     */
    @Test
    @DisplayName("buckets: an add that finds its home bucket locked moves to the next bucket, wrapping after the last")
    void contendedAddMovesToTheNextBucket() throws Exception {
        AggSum sum = AggSum.create(0, new AggSumLayout(3, 0));
        ExecutorService adder = adderWithAHome(sum);
        try {
            int home = onlyBucketWithBorrow(sum);
            long v = 100;
            for (int round = 0; round < 3; round++) {
                sum.value();
                addWhileHeld(adder, sum, sum.buckets[home], "an add whose home bucket " + home + " is locked");
                v += 100;
                int next = (home + 1) % 3;
                assertEquals(next, onlyBucketWithBorrow(sum), "the add that found bucket " + home
                        + " locked must use the next bucket");
                assertInvariants(sum, v, "round " + round);
                home = next;
            }
        } finally {
            adder.shutdownNow();
        }
    }

    /**
     * The bucket choice: after moving, the thread takes the next bucket's lock with {@code lock()}, waiting if it
     * is held. Two buckets; the adder thread's first add borrows on its home bucket h, its second (h held by the
     * test) moves it to the other bucket n and borrows there, so both have borrowed 1600 and n is its home. With
     * the test holding n and h, a third add of 100 finds n taken, moves to h, and must wait for h's lock, although
     * 0 + 100 is within h's borrow and its fast path would touch only h.
     */
    @Test
    @DisplayName("A7: an add that moves to the next bucket waits for that bucket's lock")
    void movedAddWaitsForTheNextBucketsLock() throws Exception {
        AggSum sum = AggSum.create(0, new AggSumLayout(2, 0));
        ExecutorService adder = adderWithAHome(sum);
        try {
            AggSumBucket h = firstBucketWithBorrow(sum);
            AggSumBucket n = sum.buckets[1 - List.of(sum.buckets).indexOf(h)];
            addWhileHeld(adder, sum, h, "an add whose home bucket is locked");
            assertEquals(2, bucketsWithBorrow(sum), "the second add moved to the other bucket: " + sum);
            n.lock();
            h.lock();
            try {
                assertWaitsWhileHeld(h, adder.submit(() -> sum.add(100)), "an add that moved to the next bucket");
            } finally {
                n.unlock();
            }
            assertInvariants(sum, 300, "after three adds");
        } finally {
            adder.shutdownNow();
        }
    }

    /**
     * An executor whose tasks all run on one thread, and so use that thread's bucket hint, after that thread has
     * added 100 to {@code sum} uncontended: its home bucket is the only one that has borrowed. A daemon thread, so
     * that an add left spinning on a bucket lock by a failed test cannot keep the JVM alive.
     */
    private static ExecutorService adderWithAHome(AggSum sum) throws InterruptedException {
        ExecutorService adder = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "aggsum-adder");
            thread.setDaemon(true);
            return thread;
        });
        within(adder.submit(() -> sum.add(100)), "an uncontended add");
        return adder;
    }

    /** Has {@code adder} add 100 to {@code sum} while the test holds {@code held}'s lock; waits for the add. */
    private static void addWhileHeld(ExecutorService adder, AggSum sum, AggSumBucket held, String what)
            throws InterruptedException {
        held.lock();
        try {
            within(adder.submit(() -> sum.add(100)), what);
        } finally {
            held.unlock();
        }
    }

    /** Waits up to 10 s for {@code task}; fails naming {@code what} if it throws or does not end. */
    private static void within(Future<?> task, String what) throws InterruptedException {
        try {
            task.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(what + " threw " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError(what + " did not end within 10 s (waiting for a locked bucket?)", e);
        }
    }

    /** The index of the one bucket that has borrowed; fails unless exactly one has. */
    private static int onlyBucketWithBorrow(AggSum sum) {
        assertEquals(1, bucketsWithBorrow(sum), "exactly one bucket has borrowed: " + sum);
        return List.of(sum.buckets).indexOf(firstBucketWithBorrow(sum));
    }

    @Test
    @DisplayName("A4: compare keeps flushing while a folded bound only equals the target")
    void compareFlushesOnWhileABoundEqualsTheTarget() throws Exception {
        AggSum below = sumWithTwoBorrowingBuckets();
        AggSumBucket first = firstBucketWithBorrow(below);
        long upperAfterFirstFold = below.upperBound() + first.delta - first.borrowed;
        assertTrue(exactValueOf(below) < upperAfterFirstFold, "the other buckets' borrow keeps the folded upper bound above V");
        assertEquals(-1, below.compare(upperAfterFirstFold), "upper == target after one fold decides nothing");
        assertEquals(0, bucketsWithBorrow(below), "so compare folds every bucket");

        AggSum above = sumWithTwoBorrowingBuckets();
        first = firstBucketWithBorrow(above);
        long lowerAfterFirstFold = above.lowerBound() + first.delta + first.borrowed;
        assertTrue(lowerAfterFirstFold > 0 && lowerAfterFirstFold < exactValueOf(above));
        assertEquals(1, above.compare(lowerAfterFirstFold), "lower == target after one fold decides nothing");
        assertEquals(0, bucketsWithBorrow(above), "so compare folds every bucket");
    }

    @Test
    @DisplayName("A4: compare stops once a folded lower bound is above the target")
    void compareStopsFlushingOnceTheLowerBoundIsAbove() throws Exception {
        AggSum sum = sumWithTwoBorrowingBuckets();
        int borrowing = bucketsWithBorrow(sum);
        AggSumBucket first = firstBucketWithBorrow(sum);
        long lowerAfterFirstFold = sum.lowerBound() + first.delta + first.borrowed;
        assertTrue(sum.lowerBound() <= lowerAfterFirstFold - 1, "the lock-free pre-check must not decide");
        assertEquals(1, sum.compare(lowerAfterFirstFold - 1));
        assertEquals(1, sum.counters().bucketsFlushed(), "folding the first bucket decides that V > target");
        assertEquals(borrowing - 1, bucketsWithBorrow(sum), "the other buckets keep their borrow");
    }

    @Test
    @DisplayName("A4: value folds every bucket that has borrowed, whatever the bounds say after the first")
    void valueFoldsEveryBorrowingBucket() throws Exception {
        AggSum sum = sumWithTwoBorrowingBuckets();
        long v = exactValueOf(sum);
        int borrowing = bucketsWithBorrow(sum);
        assertEquals(v, sum.value());
        assertEquals(0, bucketsWithBorrow(sum), "A4: value leaves every bucket empty");
        AggSumCounters counters = sum.counters();
        assertEquals(1, counters.valueCalls());
        assertEquals(borrowing, counters.bucketsFlushed(), "one fold per borrowing bucket");
    }

    @Test
    @DisplayName("A1, A2, A4, A7: threads sharing one bucket contend for its lock and lose no add")
    void contendedAddsOnOneBucketLoseNothing() throws Exception {
        AggSum sum = AggSum.create(0, AggSumLayout.singleBucket());
        long v = addBalancedConcurrently(sum, 4, 50_000, 1000, 500, i -> {
            sum.value();
            sum.compare(i);
            sum.counters();
        });
        assertInvariants(sum, v, "at quiescence");
        assertEquals(v, sum.value());
        AggSumCounters counters = sum.counters();
        assertEquals(2L * v, counters.fastPathAdds() + counters.slowPathAdds(), "every add counted once: " + counters);
    }

    /**
     * Starts {@code threads} threads that each, {@code perThread} times, add a random delta in [1, maxDelta) and
     * take it back but 1, calling {@code probe} with the iteration every {@code every} iterations; joins them.
     *
     * @return the exact value they leave, {@code threads * perThread}
     */
    private static long addBalancedConcurrently(AggSum sum, int threads, int perThread, int maxDelta, int every,
            IntConsumer probe) throws Exception {
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            workers.add(startThread(() -> {
                await(start);
                SplittableRandom random = new SplittableRandom(seed);
                for (int i = 0; i < perThread; i++) {
                    long delta = random.nextLong(1, maxDelta);
                    sum.add(delta);
                    sum.add(-delta + 1);
                    if (i % every == 0) {
                        probe.accept(i);
                    }
                }
            }));
        }
        for (Thread w : workers) {
            w.join();
        }
        return (long) threads * perThread;
    }

    @Test
    @DisplayName("accessors: layout, exactness, counters of value and compare calls, and the string form")
    void accessorsReportTheConfigurationAndState() {
        AggSumLayout layout = new AggSumLayout(3, 1);
        AggSum sum = AggSum.create(-2, layout);
        assertEquals(layout, sum.layout());
        assertFalse(sum.isExact());
        assertEquals("AggSum[lower=-2, upper=18446744073709551614, buckets=3, shift=1]", sum.toString());
        assertEquals(-2, sum.value());
        assertEquals(0, sum.compare(-2));
        assertEquals(new AggSumCounters(0, 0, 1, 1, 0), sum.counters());
        assertEquals("AggSum[lower=4, upper=4, buckets=0, shift=0, exact]", AggSum.exact(4).toString());
    }

    @Test
    @DisplayName("counters() reads a bucket's fast-path count under the bucket's lock: it waits for the add holding it")
    void countersWaitForTheBucketLock() throws InterruptedException {
        AggSum sum = AggSum.create(0, AggSumLayout.singleBucket());
        sum.add(10);
        sum.add(1);
        AggSumBucket bucket = sum.buckets[0];
        bucket.lock(); // as a fast-path add holds it between its loads and stores
        assertWaitsWhileHeld(bucket, startTask(sum::counters), "counters()");
        assertEquals(new AggSumCounters(1, 1, 0, 0, 0), sum.counters());
    }

    /**
     * aggsum.c 194: the slow path folds the bucket ({@code asc_delta}, {@code asc_borrowed}) under
     * {@code asc_lock}, which a fast-path add on another CPU may hold. The test holds the core lock until the add
     * has left its fast path and waits for the core, takes the bucket's lock, then lets the add have the core.
     */
    @Test
    @DisplayName("A7: the slow path folds the bucket under the bucket's lock: it waits for the add holding it")
    void slowPathWaitsForTheBucketLock() throws InterruptedException {
        AggSum sum = AggSum.create(1000, AggSumLayout.singleBucket());
        AggSumBucket bucket = sum.buckets[0];
        FutureTask<Void> add = new FutureTask<>(() -> sum.add(10), null); // nothing borrowed: the fast path fails
        Thread adder;
        synchronized (sum.core) {
            adder = startThread(add);
            awaitState(adder, state -> state == Thread.State.BLOCKED, "the add's slow path waits for the core lock");
            assertTrue(bucket.tryLock(), "the add released the bucket before its slow path");
        }
        awaitState(adder, state -> state != Thread.State.BLOCKED, "the add's slow path takes the core lock");
        assertWaitsWhileHeld(bucket, add, "the slow path of add(10)");
        assertInvariants(sum, 1010, "after the slow path");
    }

    /** aggsum.c 149 ({@code aggsum_value}) and 230 ({@code aggsum_compare}) fold a bucket under its lock. */
    @Test
    @DisplayName("A4, A7: value() folds a bucket under the bucket's lock: it waits for the add holding it")
    void valueWaitsForTheBucketLock() throws Exception {
        AggSum sum = AggSum.create(1000, AggSumLayout.singleBucket());
        sum.add(10);
        sum.add(-20);
        AggSumBucket bucket = sum.buckets[0];
        bucket.lock();
        FutureTask<Long> value = new FutureTask<>(sum::value);
        startThread(value);
        assertWaitsWhileHeld(bucket, value, "value()");
        assertEquals(990, value.get(), "A4: value() is exact");
        assertInvariants(sum, 990, "after value()");
    }

    /**
     * With the test holding {@code bucket}'s lock: {@code operation}, running on another thread, must not have
     * ended after 500 ms and must not have released that lock; once the test releases it, it must end within 10 s.
     */
    private static void assertWaitsWhileHeld(AggSumBucket bucket, Future<?> operation, String name)
            throws InterruptedException {
        assertThrows(TimeoutException.class, () -> operation.get(500, TimeUnit.MILLISECONDS),
                "A7: " + name + " went on while another thread held the bucket's lock");
        assertFalse(bucket.tryLock(), "A7: " + name + " released a bucket lock it did not hold");
        bucket.unlock();
        within(operation, name + ", once the bucket's lock was released,");
    }

    /** Runs {@code body} on a new thread. */
    private static Future<?> startTask(Runnable body) {
        FutureTask<Void> task = new FutureTask<>(body, null);
        startThread(task);
        return task;
    }

    /** Waits up to 10 s for {@code thread}'s state to satisfy {@code reached}; fails naming {@code step}. */
    private static void awaitState(Thread thread, Predicate<Thread.State> reached, String step) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!reached.test(thread.getState())) {
            assertTrue(System.nanoTime() < deadline, "within 10 s: " + step + ", but the thread is " + thread.getState());
            Thread.yield();
        }
    }

    /**
     * An aggsum over 64 buckets whose value is 1,000,000 plus 100 per add, with at least two buckets borrowing: each
     * add runs on a new thread, which lands on its own bucket hint, until two buckets have borrowed.
     */
    private static AggSum sumWithTwoBorrowingBuckets() throws InterruptedException {
        AggSum sum = AggSum.create(1_000_000, new AggSumLayout(64, 0));
        while (bucketsWithBorrow(sum) < 2) {
            runOnNewThread(() -> sum.add(100));
        }
        return sum;
    }

    /** V, from A2: the lower bound plus every bucket's delta and borrow; call only while no thread adds. */
    private static long exactValueOf(AggSum sum) {
        long v = sum.lowerBound();
        for (AggSumBucket b : sum.buckets) {
            v += b.delta + b.borrowed;
        }
        return v;
    }

    private static int bucketsWithBorrow(AggSum sum) {
        int n = 0;
        for (AggSumBucket b : sum.buckets) {
            n += b.borrowed != 0 ? 1 : 0;
        }
        return n;
    }

    private static AggSumBucket firstBucketWithBorrow(AggSum sum) {
        for (AggSumBucket b : sum.buckets) {
            if (b.borrowed != 0) {
                return b;
            }
        }
        throw new IllegalStateException("no bucket has borrowed: " + sum);
    }

    private static Thread startThread(Runnable r) {
        Thread t = new Thread(r);
        t.start();
        return t;
    }

    private static void runOnNewThread(Runnable r) throws InterruptedException {
        startThread(r).join();
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
