package org.arcref.zthr;

/**
 * {@code zthr_wakeup} as it was between #8229 and #8333 (commits 61c3391acc to 2747f599ff): it takes the request
 * lock before the state lock. A cancel holds the request lock while it waits for the worker, so a wakeup from the
 * thread the work function waits for (spa_sync, in ZFS) blocks, and the three wait for each other for ever (Z2, Z4
 * broken; spin's {@code zthr.pml -DWAKEUP_TAKES_REQUEST_LOCK}). Test sources only.
 */
public final class RequestLockedWakeupZthr extends Zthr {

    private RequestLockedWakeupZthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        super(name, checkFunc, func, 0, priority);
    }

    /** Same signature as {@link Zthr#create}, for tests that choose a variant by name. */
    public static Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        return new RequestLockedWakeupZthr(name, checkFunc, func, priority).start();
    }

    @Override
    public void wakeup() {
        requestLock.lock();
        try {
            super.wakeup();
        } finally {
            requestLock.unlock();
        }
    }
}
