package org.arcref.zthr;

import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;

/**
 * {@code zthr_cancel} and {@code zthr_resume} as they were before #8229 (at 61c3391acc^; the race of #7744):
 * neither takes the request lock; cancel raises its flag, waits for the worker to exit and only then lowers the
 * flag itself; resume asserts that no cancel is in progress and starts a worker (its callers checked
 * {@code zthr_isrunning} first). A resume that runs after the worker exited but before the canceller got the lock
 * back finds the cancel still in progress and fails its assertion (Z4 broken; spin's {@code zthr.pml -DPRE_8229}).
 *
 * <p>Since #8229 the exiting worker lowers {@code cancel} itself, which the worker here (the real one) still does;
 * the variant therefore keeps pre-#8229's flag, which only the canceller lowers, in {@link #cancelInProgress}, and
 * its resume asserts on that flag, as zthr.c's {@code ASSERT(!t->zthr_cancel)} did. The assertion throws whether or
 * not the JVM runs with {@code -ea}, as a ZFS debug build panics. Test sources only.
 */
public final class Pre8229Zthr extends Zthr {
    /** zthr_cancel before #8229: raised and lowered by the canceller only; guarded by the state lock. */
    private boolean cancelInProgress;

    private Pre8229Zthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        super(name, checkFunc, func, 0, priority);
    }

    /** Same signature as {@link Zthr#create}, for tests that choose a variant by name. */
    public static Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        return new Pre8229Zthr(name, checkFunc, func, priority).start();
    }

    @Override
    public void cancel() {
        stateLock.lock();
        try {
            cv.signalAll();
            cancel = true;
            cancelInProgress = true;
            while (thread != null) {
                cv.awaitUninterruptibly();
            }
            cancel = false;
            cancelInProgress = false;
        } finally {
            stateLock.unlock();
        }
    }

    @Override
    public void resume() {
        stateLock.lock();
        try {
            if (thread != null) {
                throw new PropertyViolation(Property.Z4, "resume of a running zthr (pre-#8229 callers checked first)",
                        "");
            }
            if (cancelInProgress) {
                throw new PropertyViolation(Property.Z4, "(#7744) resume found a cancel in progress", "");
            }
            startWorker();
        } finally {
            stateLock.unlock();
        }
    }
}
