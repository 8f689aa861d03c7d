package org.arcref.hang;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a timed-out concurrent test reports: the property it names and where every thread waits. */
class TimeoutDiagnosisTest {

    @Test
    @DisplayName("a timeout fails naming the test's property and dumps every thread with the lock it waits for")
    void timeoutNamesThePropertyAndDumpsThreads() throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        Thread stuck = new Thread(() -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "stuck-waiter");
        stuck.setDaemon(true);
        stuck.start();
        while (stuck.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        Throwable failure = TimeoutDiagnosis.diagnose("L1: a waiter returns",
                new TimeoutException("test timed out after 2 seconds"));
        stuck.interrupt();
        AssertionError e = assertInstanceOf(AssertionError.class, failure);
        String message = e.getMessage();
        assertTrue(message.startsWith("L1: a waiter returns: did not finish in time (test timed out after 2 seconds)"),
                message);
        assertTrue(message.contains("\"stuck-waiter\" WAITING on java.util.concurrent.CountDownLatch$Sync"), message);
        assertTrue(message.contains("java.util.concurrent.CountDownLatch.await("), message);
    }

    @Test
    @DisplayName("any other failure passes through unchanged")
    void otherFailuresPassThrough() {
        IllegalStateException other = new IllegalStateException("not a timeout");
        assertSame(other, TimeoutDiagnosis.diagnose("L1: x", other));
    }
}
