package org.arcref.zthr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.Locale;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sentence {@link PriorityPolicy} logs names the mode this JVM runs in. The test reads the HotSpot flag and
 * {@code os.name} itself and expects the sentence of that mode; the branch for other operating systems is reached by
 * setting {@code os.name} for the duration of one call. The branches for a JVM without HotSpot's diagnostic bean
 * and for Linux with {@code -XX:ThreadPriorityPolicy=1} (which needs root) cannot run in this test JVM.
 */
class PriorityPolicyTest {

    private static String threadPriorityPolicy() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("ThreadPriorityPolicy")
                .getValue();
    }

    @Test
    @DisplayName("the description is the sentence of this JVM's priority mode")
    void describesThisJvmsMode() {
        String policy = threadPriorityPolicy();
        String os = System.getProperty("os.name");
        String description = PriorityPolicy.describe();
        if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
            assertEquals("zthr priorities: ThreadPriorityPolicy=" + policy + " on " + os
                    + "; the OS maps Java priorities 1, 5, 10 in its own way", description);
        } else if (policy.equals("0")) {
            assertEquals("zthr priorities: IGNORED (Linux, ThreadPriorityPolicy=0): every zthr runs at nice 0; run the"
                    + " JVM as root with -XX:ThreadPriorityPolicy=1 (and -XX:JavaPriority1_To_OSPriority=19 for"
                    + " minclsyspri = nice 19)", description);
        } else {
            assertTrue(description.startsWith("zthr priorities: APPLIED (Linux, ThreadPriorityPolicy=" + policy
                    + "): Java priorities 1, 5, 10 run at nice "), description);
        }
    }

    @Test
    @DisplayName("on an operating system other than Linux the description names it and the flag's value")
    void namesOtherOperatingSystems() {
        String os = System.getProperty("os.name");
        String description;
        try {
            System.setProperty("os.name", "Plan 9");
            description = PriorityPolicy.describe();
        } finally {
            System.setProperty("os.name", os);
        }
        assertEquals("zthr priorities: ThreadPriorityPolicy=" + threadPriorityPolicy()
                + " on Plan 9; the OS maps Java priorities 1, 5, 10 in its own way", description);
    }
}
