package org.arcref.zthr;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NoSuchElementException;

/**
 * The real {@link Zthr}, except that each new worker (on create and on every resume) is held before it runs until
 * the test calls {@link #startHeldWorker()}: the window in which zthr.c's worker is "starting" ({@code zthr_thread}
 * is set, the thread has not yet taken the state lock) stays open for as long as a test needs, so a counterexample
 * that interleaves callers into that window replays deterministically. Nothing else differs: the variants that
 * replay zfs-2.1.1's start-up and exit paths extend it and override one seam each. Test sources only.
 */
public class HeldStartZthr extends Zthr {
    private final Deque<Thread> held = new ArrayDeque<>();

    HeldStartZthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        super(name, checkFunc, func, 0, ZthrPriority.DEFCLSYSPRI);
    }

    /** Like {@link Zthr#create}, with the first worker held. */
    public static HeldStartZthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        return new HeldStartZthr(name, checkFunc, func).startHeld();
    }

    /** Starts the first worker of a zthr built by a subclass; for the factories of the variants. */
    final HeldStartZthr startHeld() {
        start();
        return this;
    }

    @Override
    final void startThread(Thread worker) {
        synchronized (held) {
            held.add(worker);
        }
    }

    /**
     * Lets the oldest held worker run.
     *
     * @return its thread
     * @throws NoSuchElementException if no worker is held
     */
    public Thread startHeldWorker() {
        Thread worker;
        synchronized (held) {
            worker = held.remove();
        }
        worker.start();
        return worker;
    }
}
