package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.junit.jupiter.api.Test;

/** The lost wakeup's violation: L1, naming the waiter's count as an unsigned number. */
class LostWakeupTest {

    @Test
    void theViolationIsL1NamingTheUnsignedCount() {
        PropertyViolation v = LostWakeup.violation(-1);
        assertEquals(Property.L1, v.property());
        assertEquals("an eviction waiter for count 18446744073709551615 is queued but arc_evict_needed is FALSE",
                v.detail());
    }
}
