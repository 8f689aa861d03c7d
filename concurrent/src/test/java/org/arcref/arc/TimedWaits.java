package org.arcref.arc;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Waits of the concurrent ARC's tests that fail the test, naming what did not happen, instead of hanging it: a
 * broken protocol fails within the wait's own limit, never by the build's time-out.
 */
final class TimedWaits {

    private TimedWaits() {
    }

    /**
     * @param latch the latch
     * @param limit how long to wait for it
     * @param failure what did not happen, the assertion's message
     * @throws AssertionError if the latch is not released within {@code limit}, or the wait is interrupted
     */
    static void awaitOrFail(CountDownLatch latch, Duration limit, String failure) {
        try {
            if (!latch.await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(failure);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + failure, e);
        }
    }

    /**
     * @param thread the thread
     * @param limit how long to wait for it to end
     * @throws AssertionError naming the thread if it is alive after {@code limit}, or the wait is interrupted
     */
    static void joinOrFail(Thread thread, Duration limit) {
        try {
            thread.join(limit.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while joining " + thread.getName(), e);
        }
        if (thread.isAlive()) {
            throw new AssertionError(thread.getName() + " did not end within " + limit.toMillis() + " ms");
        }
    }
}
