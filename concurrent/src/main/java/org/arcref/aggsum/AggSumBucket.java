package org.arcref.aggsum;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One {@code aggsum_bucket_t}: a pending delta and a borrowed amount guarded by the bucket's own lock
 * ({@code asc_lock}), padded so that two buckets never share a cache line ({@code ____cacheline_aligned}).
 *
 * <p>The lock is a test-and-set spin lock on the {@code locked} field: acquiring is one compare-and-set (with
 * volatile semantics) and releasing is one release store, so an uncontended fast path costs one atomic
 * instruction, as a {@code LongAdder} cell update does; a monitor costs two. The critical sections it guards are
 * a few loads and stores, so a waiter spins briefly and then yields. The 128 bytes after the fields keep the next
 * bucket (or any neighbour) off this bucket's line and its adjacent-line prefetch pair.
 */
final class AggSumBucket extends BucketFields {
    private static final VarHandle LOCKED;
    private static final int SPINS_BEFORE_YIELD = 64;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(BucketFields.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;

    /** {@code mutex_enter(&asc_lock)}. */
    void lock() {
        if (!LOCKED.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    /** {@code mutex_tryenter(&asc_lock)}: takes the lock if it is free, without waiting. */
    boolean tryLock() {
        return LOCKED.compareAndSet(this, 0, 1);
    }

    private void lockContended() {
        int spins = 0;
        while ((int) LOCKED.getOpaque(this) != 0 || !LOCKED.compareAndSet(this, 0, 1)) {
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** {@code mutex_exit(&asc_lock)}: publishes the guarded fields to the next holder. */
    void unlock() {
        LOCKED.setRelease(this, 0);
    }
}
