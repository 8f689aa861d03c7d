package org.arcref.zthr;

/**
 * zfs-2.1.1's start-up behaviour: after an idle check the worker sleeps even when a {@code waitCycleDone} caller
 * registered while it was starting, so that caller waits for some later wakeup, for ever if none comes (Z3 broken;
 * spin's {@code zthr.pml -DSTARTUP_SLEEP_2_1_1}). Workers are held at their start ({@link HeldStartZthr}). Test
 * sources only.
 */
public final class StartupSleepZthr extends HeldStartZthr {

    private StartupSleepZthr(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        super(name, checkFunc, func);
    }

    /** Like {@link HeldStartZthr#create}. */
    public static HeldStartZthr create(String name, ZthrCheckFunc checkFunc, ZthrFunc func) {
        return new StartupSleepZthr(name, checkFunc, func).startHeld();
    }

    @Override
    boolean sleepsDespiteWaiters() {
        return true;
    }
}
