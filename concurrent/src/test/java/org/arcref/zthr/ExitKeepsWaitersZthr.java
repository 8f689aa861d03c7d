package org.arcref.zthr;

/**
 * zfs-2.1.1's exit path: the exiting worker clears {@code thread} and {@code cancel} and wakes the canceller, but
 * neither clears {@code hasWaiters} nor signals the {@code waitCycleDone} callers. A caller that registered while a
 * worker was starting and a cancel was already pending then waits for ever (Z3 broken; spin's
 * {@code zthr.pml -DEXIT_KEEPS_WAITERS}). Workers are held at their start ({@link HeldStartZthr}). Test sources
 * only.
 */
public final class ExitKeepsWaitersZthr extends HeldStartZthr {

    private ExitKeepsWaitersZthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        super(name, checkFunc, func);
    }

    /** Like {@link HeldStartZthr#create}. */
    public static HeldStartZthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        return new ExitKeepsWaitersZthr(name, checkFunc, func).startHeld();
    }

    @Override
    void releaseWaitersOnExit() {
    }
}
