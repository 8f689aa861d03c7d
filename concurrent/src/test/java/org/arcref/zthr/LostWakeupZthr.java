package org.arcref.zthr;

/**
 * A deliberately broken zthr for proving that the checks can fail: its worker runs the check function with the
 * state lock released, so a wakeup (or a waiter's signal) that arrives after the check saw no work and before the
 * worker sleeps is lost, and the worker sleeps with work pending (Z2, Z3 broken). Test sources only.
 */
public final class LostWakeupZthr extends Zthr {

    private LostWakeupZthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        super(name, checkFunc, func, 0, priority);
    }

    /** Same signature as {@link Zthr#create}, for tests that choose a variant by name. */
    public static Zthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func, ZthrPriority priority) {
        return new LostWakeupZthr(name, checkFunc, func, priority).start();
    }

    @Override
    boolean runCheck() {
        stateLock.unlock();
        try {
            return super.runCheck();
        } finally {
            stateLock.lock();
        }
    }
}
