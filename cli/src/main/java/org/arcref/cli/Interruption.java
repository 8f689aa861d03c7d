package org.arcref.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C for the whole of an {@code arc} process: {@link #install} (in {@code main}, before any work) adds a shutdown
 * hook that, on SIGINT or SIGTERM, asks the work to stop ({@link #requested()}) and waits up to
 * {@value #GRACE_SECONDS} s for {@code main} to print its summary and {@link Installed#close() close} the
 * installation. Every loop that can outlast a second polls {@link #requested()} (the reading of an input file does so
 * on every read, {@link InputFile}), so a command stops within a fraction of a second, prints the one-line summary
 * of what it did, and exits with the status it chose ({@link ExitCode#INTERRUPTED} without a finding).
 *
 * <p>If the work does not stop within the grace period (a read blocked on a silent pipe), the hook prints one line
 * saying so on standard error and the JVM exits with its own status for the signal (130 for SIGINT).
 *
 * <p>Without an installation (a command run inside another program, as the tests do) nothing asks to stop:
 * {@link #requested()} stays false.
 */
final class Interruption {

    /** How long the hook waits for the work to wind down and print its summary. */
    static final long GRACE_SECONDS = 10;

    private static volatile boolean requested;

    private Interruption() {
    }

    /**
     * Installs the hook for this process.
     *
     * @param err standard error, for the line the hook prints if the work does not stop in time
     * @return the installation; close it after the summary is printed and flushed
     */
    static Installed install(PrintStream err) {
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            requested = true;
            try {
                if (!done.await(GRACE_SECONDS, TimeUnit.SECONDS)) {
                    err.println("arc: interrupted; the command did not stop within " + GRACE_SECONDS
                            + " s of the signal, so it printed no summary");
                    err.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "arc-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        return new Installed(done, hook);
    }

    /** @return whether a signal asked this process to stop (always false without an installation) */
    static boolean requested() {
        return requested;
    }

    /**
     * @throws Interrupted if a signal asked this process to stop
     * @param what the work underway, as a phrase for the summary ({@code reading trace file t.gz})
     */
    static void check(String what) {
        if (requested) {
            throw new Interrupted(what);
        }
    }

    /** An installed hook; closing it lets a signal that comes later end the JVM at once. */
    static final class Installed implements AutoCloseable {
        private final CountDownLatch done;
        private final Thread hook;

        private Installed(CountDownLatch done, Thread hook) {
            this.done = done;
            this.hook = hook;
        }

        /**
         * @return whether a signal began the JVM's shutdown: its exit status is then the signal's (130 for SIGINT)
         *     unless {@code main} halts it with the status the command chose
         */
        boolean signalled() {
            return requested;
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

    /**
     * Thrown by work that stopped because of a signal where it has no summary of its own to print (the reading of an
     * input); {@code arc} prints {@code arc: interrupted while WHAT} and exits with {@link ExitCode#INTERRUPTED}.
     */
    static final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Interrupted(String what) {
            super("interrupted while " + what, null, false, false);
        }
    }
}
