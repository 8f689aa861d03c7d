package org.arcref.zthr;

/**
 * {@code zthr_checkfunc_t}: decides whether the zthr has work. Called on the zthr's thread with the zthr's state
 * lock held, so it must be cheap, must not block and must not take a lock that a thread calling
 * {@link Zthr#wakeup()} may hold (fact sheet b.5). It may be called spuriously and must be idempotent.
 */
@FunctionalInterface
public interface ZthrCheckFunc {
    /** Returns whether {@link ZthrFunc#run} should run now. */
    boolean check(Zthr zthr);
}
