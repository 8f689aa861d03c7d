package org.arcref.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C for long work: while installed, a shutdown hook (SIGINT, SIGTERM) asks the work to stop
 * ({@link #requested()}) and waits up to {@value #GRACE_SECONDS} s for it to {@link #close()}, so the command can
 * print its one-line summary before the JVM exits, instead of dying with a stack trace mid-line.
 */
final class Interruption implements AutoCloseable {

    /** How long the hook waits for the work to wind down. */
    static final long GRACE_SECONDS = 10;

    private static volatile boolean signalled;

    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private volatile boolean requested;

    private Interruption() {
        hook = new Thread(() -> {
            requested = true;
            signalled = true;
            try {
                done.await(GRACE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "arc-interrupt");
    }

    /** @return an installed interruption; close it when the work is done */
    static Interruption install() {
        Interruption i = new Interruption();
        Runtime.getRuntime().addShutdownHook(i.hook);
        return i;
    }

    /** @return whether the user asked to stop */
    boolean requested() {
        return requested;
    }

    /**
     * @return whether a signal started the JVM's shutdown while some work was installed: the JVM then exits with
     *     its own status (130 for SIGINT) unless the command halts it with the status it chose
     */
    static boolean signalled() {
        return signalled;
    }

    @Override
    public void close() {
        done.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down (Ctrl-C): the hook returns now that done is counted down
        }
    }
}
