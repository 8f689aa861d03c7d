package org.arcref.specs.bounded;

import static org.arcref.specs.lincheck.ExploredSchedules.ghost;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} on one Java monitor, which Lincheck's model checker sees as monitor enter, exit, wait and notify
 * events, for running the real {@code Zthr} with its locks substituted ({@code ZthrProbes.create}). An experiment
 * towards using the zthr's interleaving trees up ({@code docs/formal-models.md}): it does not use them up.
 *
 * <p>Contract, as far as {@code Zthr} uses a lock: {@link #lock()} blocks until no thread holds the lock; not
 * reentrant. {@link Condition#awaitUninterruptibly()} releases the lock and joins the condition in one step (both
 * under the monitor), returns after a later {@link Condition#signalAll()} of that condition and then re-acquires the
 * lock. The methods {@code Zthr} never calls throw {@link UnsupportedOperationException}, as does
 * {@code awaitNanos} (only timer zthrs call it, and no scenario has one). The bookkeeping fields are read and written
 * in ignored sections: only the thread that holds the monitor touches them, so no other thread can observe a step in
 * between, and Lincheck's switch points stay at the monitor's events.
 */
final class MonitorLock implements Lock {
    /** The thread that holds the lock, or null; guarded by this object's monitor. */
    private Thread owner;

    @Override
    public void lock() {
        synchronized (this) {
            acquire();
        }
    }

    @Override
    public void unlock() {
        synchronized (this) {
            release();
            notifyAll();
        }
    }

    private void acquire() {
        while (ghost(() -> owner != null)) {
            try {
                wait();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        ghost(() -> owner = Thread.currentThread());
    }

    private void release() {
        ghost(() -> owner = null);
    }

    @Override
    public Condition newCondition() {
        return new MonitorCondition();
    }

    @Override
    public void lockInterruptibly() {
        throw new UnsupportedOperationException("Zthr never locks interruptibly");
    }

    @Override
    public boolean tryLock() {
        throw new UnsupportedOperationException("Zthr never tries a lock");
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) {
        throw new UnsupportedOperationException("Zthr never tries a lock");
    }

    private final class MonitorCondition implements Condition {
        /** signalAll calls so far; guarded by the lock's monitor. */
        private long generation;

        @Override
        public void awaitUninterruptibly() {
            synchronized (MonitorLock.this) {
                long joined = ghost(() -> generation);
                release();
                MonitorLock.this.notifyAll();
                while (ghost(() -> generation == joined)) {
                    try {
                        MonitorLock.this.wait();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                acquire();
            }
        }

        @Override
        public long awaitNanos(long nanosTimeout) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void signalAll() {
            synchronized (MonitorLock.this) {
                ghost(() -> generation++);
                MonitorLock.this.notifyAll();
            }
        }

        @Override
        public void signal() {
            throw new UnsupportedOperationException("Zthr signals all waiters");
        }

        @Override
        public void await() {
            throw new UnsupportedOperationException("Zthr waits uninterruptibly");
        }

        @Override
        public boolean await(long time, TimeUnit unit) {
            throw new UnsupportedOperationException("Zthr waits uninterruptibly");
        }

        @Override
        public boolean awaitUntil(java.util.Date deadline) {
            throw new UnsupportedOperationException("Zthr waits uninterruptibly");
        }
    }
}
