package org.arcref.zfs;

import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;

/**
 * The lost wakeup of property L1 as both ARCs report it when their evictor runs on the calling thread: an eviction
 * waiter ({@code arc_evict_waiter_t}) is queued, but {@code arc_evict_needed} is FALSE, so no evict zthr pass would
 * ever release it. A free-running ARC would wait forever there; the stepped ones throw instead.
 */
public final class LostWakeup {

    private LostWakeup() {
    }

    /**
     * @param count the queued waiter's {@code aew_count}
     * @return the L1 violation naming it
     */
    public static PropertyViolation violation(long count) {
        return new PropertyViolation(Property.L1, "an eviction waiter for count " + Long.toUnsignedString(count)
                + " is queued but arc_evict_needed is FALSE", "");
    }
}
