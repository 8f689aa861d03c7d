package org.arcref.arc;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A kernel {@code kmutex_t} as {@code mutex_enter} takes it: adaptive, spinning while the lock is likely to be
 * released soon and blocking only then. {@link #lock()} tries the lock up to {@value #SPINS} times, spinning in
 * between, before it blocks as {@link ReentrantLock#lock()} does; everything else is a non-fair
 * {@link ReentrantLock}'s (reentrant, {@code tryLock} barges).
 *
 * <p>Why: the sublist and hash locks guard a few link updates or one eviction batch. Blocking after one failed
 * try, as {@link ReentrantLock} does, made most contended acquisitions park and be unparked; a JFR profile of E3
 * at 2 threads had a quarter of its samples in that handoff (docs/performance.md).
 */
final class AdaptiveMutex extends ReentrantLock {
    private static final long serialVersionUID = 1L;
    private static final int SPINS = 100;

    @Override
    public void lock() {
        for (int i = 0; i < SPINS; i++) {
            if (tryLock()) {
                return;
            }
            Thread.onSpinWait();
        }
        super.lock();
    }
}
