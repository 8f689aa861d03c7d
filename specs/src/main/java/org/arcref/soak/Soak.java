package org.arcref.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.arcref.arc.ConcurrentArc;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.check.ArcInvariants;

/**
 * The soak of the concurrent ARC (N1, L1): {@code threads} threads run random reads (all kinds, with holds), writes,
 * completions, releases, frees, shrinks and ticks ({@link SoakWorker}) on one {@link ConcurrentArc} until a deadline
 * or until stopped; each releases and completes what it started; then the ARC is {@linkplain ConcurrentArc#close()
 * closed} and its snapshot taken at quiescence.
 *
 * <h2>Contract</h2>
 * {@link #run} never throws for a violation: it returns a {@link SoakResult} whose {@link SoakResult#violations()}
 * are every broken promise, each a {@link PropertyViolation}: an operation that threw or a read that returned a wrong
 * value (N1, or the property the operation's own {@link PropertyViolation} names, such as L1), a thread still running
 * {@value #HANG_SECONDS} s after the deadline (an operation hangs, L1), an operation that took longer than
 * {@value #MAX_OP_SECONDS} s (L1), a {@code close()} still running after {@value #CLOSE_SECONDS} s (Z1: the evict
 * zthr does not stop; or a waiter is not released, L1), and accounting that does not add up at quiescence (R3,
 * R4).
 *
 * <p>Used by the soak tests (specs) and by {@code arc soak}.
 */
public final class Soak {

    /** An operation slower than this breaks L1. */
    public static final long MAX_OP_SECONDS = 5;
    /** How long after the deadline a thread may still run before it counts as hung. */
    public static final long HANG_SECONDS = 30;
    /** How long {@code close()} may take before it counts as hung. */
    public static final long CLOSE_SECONDS = 10;

    private final int threads;

    /**
     * @param threads the number of worker threads, at least 1
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public Soak(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, was " + threads);
        }
        this.threads = threads;
    }

    /**
     * Runs the soak; {@code arc} is closed afterwards.
     *
     * @param arc a fresh ARC in the default (threaded) mode
     * @param nanos how long the workers run
     * @param stop polled by the workers between operations; true ends the run early (Ctrl-C)
     * @param ops counts the operations as they complete (for progress)
     * @return what the run left
     * @throws InterruptedException if interrupted while waiting for the workers
     */
    public SoakResult run(ConcurrentArc<Long> arc, long nanos, BooleanSupplier stop, AtomicLong ops)
            throws InterruptedException {
        AtomicLong longestOpNanos = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        long start = System.nanoTime();
        long deadline = start + nanos;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long firstWriteKey = (t + 1L) << 40;
            Thread thread = new Thread(() -> {
                try {
                    new SoakWorker(arc, firstWriteKey, ops, longestOpNanos).run(deadline, stop);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "soak-" + t);
            workers.add(thread);
            thread.start();
        }
        List<PropertyViolation> violations = new ArrayList<>();
        for (Thread thread : workers) {
            long left = Math.max(0, deadline - System.nanoTime());
            thread.join(TimeUnit.NANOSECONDS.toMillis(left) + TimeUnit.SECONDS.toMillis(HANG_SECONDS));
            if (thread.isAlive()) {
                violations.add(new PropertyViolation(Property.L1, thread.getName() + " still running " + HANG_SECONDS
                        + " s after the deadline: an operation hangs", ""));
            }
        }
        long elapsed = System.nanoTime() - start;
        closeWithin(arc, violations);
        ArcSnapshot snapshot = arc.snapshot();
        for (Throwable f : failures) {
            violations.add(f instanceof PropertyViolation v ? v
                    : new PropertyViolation(Property.N1, "an operation failed: " + f, ""));
        }
        if (longestOpNanos.get() >= TimeUnit.SECONDS.toNanos(MAX_OP_SECONDS)) {
            violations.add(new PropertyViolation(Property.L1, "an operation took " + longestOpNanos.get() / 1_000_000
                    + " ms", ""));
        }
        try {
            ArcInvariants.r3r4Accounting(snapshot);
        } catch (PropertyViolation e) {
            violations.add(e);
        }
        return new SoakResult(snapshot, ops.get(), elapsed, longestOpNanos.get(), arc.evictionWaitTimes(),
                List.copyOf(violations), failures.isEmpty() ? null : failures.peek());
    }

    /** Closes {@code arc} on a daemon thread; adds a violation with the closer's stack if it does not return. */
    private static void closeWithin(ConcurrentArc<Long> arc, List<PropertyViolation> violations)
            throws InterruptedException {
        Thread closer = new Thread(arc::close, "soak-close");
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(CLOSE_SECONDS));
        if (closer.isAlive()) {
            StringBuilder stack = new StringBuilder();
            for (StackTraceElement frame : closer.getStackTrace()) {
                stack.append("\n\tat ").append(frame);
            }
            violations.add(new PropertyViolation(Property.Z1, "close() still running " + CLOSE_SECONDS + " s after it"
                    + " was called: the evict zthr does not stop (Z1) or a waiter is not released (L1)",
                    "close() waits" + stack));
        }
    }
}
