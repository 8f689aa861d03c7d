package org.arcref.stress.zthr;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.concurrent.atomic.AtomicInteger;
import org.arcref.stress.Variants;
import org.arcref.zthr.Zthr;
import org.arcref.zthr.ZthrCheckFunc;
import org.arcref.zthr.ZthrFunc;
import org.arcref.zthr.ZthrPriority;

/**
 * The zthr under test ({@link Zthr} unless {@value Variants#ZTHR_PROPERTY} names a variant) with the work
 * protocol of the zthr header comment: callers publish work by raising {@link #requested} and then call
 * {@link Zthr#wakeup()}; only the worker raises {@link #served}, to what it saw requested.
 */
final class Zthrs {
    private static final MethodHandle FACTORY = Variants.factory(Variants.ZTHR_PROPERTY, Zthr.class,
            MethodType.methodType(Zthr.class, String.class, ZthrCheckFunc.class, ZthrFunc.class, ZthrPriority.class));

    final AtomicInteger requested = new AtomicInteger();
    final AtomicInteger served = new AtomicInteger();
    final Zthr zthr;

    /** Starts a zthr whose check is "requested > served" and whose work runs {@code onServe} after serving. */
    Zthrs(Runnable onServe) {
        ZthrCheckFunc check = z -> served.get() < requested.get();
        ZthrFunc func = z -> {
            served.set(requested.get());
            onServe.run();
        };
        zthr = Variants.invoke(FACTORY, Zthr.class, "stress", check, func, ZthrPriority.DEFCLSYSPRI);
    }

    /** Publishes one unit of work and wakes the zthr, as a producer does. */
    void requestWork() {
        requested.incrementAndGet();
        zthr.wakeup();
    }
}
