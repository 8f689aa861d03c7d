package org.arcref.aggsum;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds the first thread that reaches one pause point of an aggsum until the test releases it, so that a test can
 * force an interleaving: the deterministic replays of the counterexamples of model M1
 * ({@code models/.../AggSumCounterexampleReplayTest}). Later arrivals at the point pass; other points are not
 * affected. One pause per aggsum at a time: creating one installs it, {@link #close()} removes it and lets a held
 * thread go. Waits time out after {@value #TIMEOUT_SECONDS} s with an error, so a choreography that went another
 * way fails instead of hanging. Test sources only.
 */
public final class AggSumPause implements AutoCloseable {
    private static final long TIMEOUT_SECONDS = 10;

    private final AggSum sum;
    private final AggSum.Pause point;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    private AggSumPause(AggSum sum, AggSum.Pause point) {
        this.sum = sum;
        this.point = point;
        sum.pauses = this::reached;
    }

    /**
     * Holds the first slow-path add that has released its bucket's lock, with the core lock still held (in
     * {@link AggSum} after the bound stores, in {@link StoreAfterUnlockAggSum} before them). Install it before
     * starting the threads that use {@code sum}.
     */
    public static AggSumPause afterSlowPathReleasesBucket(AggSum sum) {
        return new AggSumPause(sum, AggSum.Pause.SLOW_PATH_BUCKET_RELEASED);
    }

    /**
     * Holds the first {@code compare} that has read both bounds without a lock, could not decide, and has not yet
     * taken the core lock. Install it before starting the threads that use {@code sum}.
     */
    public static AggSumPause beforeCompareTakesCoreLock(AggSum sum) {
        return new AggSumPause(sum, AggSum.Pause.COMPARE_BEFORE_CORE_LOCK);
    }

    /** Waits until a thread is held at the point; throws if none arrives in time. */
    public void awaitArrival() throws InterruptedException {
        if (!arrived.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("no thread reached " + point + " within " + TIMEOUT_SECONDS + " s");
        }
    }

    /** Lets the held thread (or the next one to arrive) go on. */
    public void release() {
        released.countDown();
    }

    /** Releases any held thread and removes the pause from the aggsum. */
    @Override
    public void close() {
        release();
        sum.pauses = null;
    }

    private void reached(AggSum.Pause at) {
        if (at != point || !claimed.compareAndSet(false, true)) {
            return;
        }
        arrived.countDown();
        try {
            if (!released.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("held at " + point + " and not released within " + TIMEOUT_SECONDS
                        + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while held at " + point, e);
        }
    }
}
