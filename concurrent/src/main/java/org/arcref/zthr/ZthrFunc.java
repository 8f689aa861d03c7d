package org.arcref.zthr;

/**
 * {@code zthr_func_t}: the zthr's work, called on its thread without any zthr lock held after
 * {@link ZthrCheckFunc#check} returned true. Long work should poll {@link Zthr#isCancelled()} (and may poll
 * {@link Zthr#hasWaiters()}) to end early: a cancel is acted on only when this returns.
 */
@FunctionalInterface
public interface ZthrFunc {
    /** Does one round of work. */
    void run(Zthr zthr);
}
