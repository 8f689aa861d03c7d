package org.arcref.zthr;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which thread-priority mode this JVM runs in, read from the HotSpot flags {@code ThreadPriorityPolicy} and
 * {@code JavaPriority1_To_OSPriority}, and logged once when the first zthr starts, so that an experiment's log
 * says whether the {@link ZthrPriority} levels had any effect (on Linux they have none without
 * {@code -XX:ThreadPriorityPolicy=1}, which needs root).
 */
final class PriorityPolicy {
    private static final System.Logger LOG = System.getLogger(Zthr.class.getName());
    private static final AtomicBoolean LOGGED = new AtomicBoolean();

    private PriorityPolicy() {
    }

    /** Logs the mode at INFO the first time it is called in this JVM; later calls do nothing. */
    static void logOnce() {
        if (LOGGED.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.INFO, describe());
        }
    }

    /** A sentence saying how Java priorities 1, 5 and 10 reach the OS scheduler in this JVM. */
    static String describe() {
        String os = System.getProperty("os.name", "unknown");
        Optional<String> policy = flag("ThreadPriorityPolicy");
        if (policy.isEmpty()) {
            return "zthr priorities: not a HotSpot JVM, priority mode unknown on " + os;
        }
        if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "zthr priorities: ThreadPriorityPolicy=" + policy.get() + " on " + os
                    + "; the OS maps Java priorities 1, 5, 10 in its own way";
        }
        if ("0".equals(policy.get())) {
            return "zthr priorities: IGNORED (Linux, ThreadPriorityPolicy=0): every zthr runs at nice 0; "
                    + "run the JVM as root with -XX:ThreadPriorityPolicy=1 "
                    + "(and -XX:JavaPriority1_To_OSPriority=19 for minclsyspri = nice 19)";
        }
        String p1 = flag("JavaPriority1_To_OSPriority").orElse("-1");
        String nice1 = "-1".equals(p1) ? "4" : p1;
        return "zthr priorities: APPLIED (Linux, ThreadPriorityPolicy=" + policy.get() + "): Java priorities 1, 5, 10"
                + " run at nice " + nice1 + ", 0, -5 (JavaPriority1_To_OSPriority=" + p1 + ")";
    }

    private static Optional<String> flag(String name) {
        try {
            HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (bean == null) {
                return Optional.empty();
            }
            VMOption option = bean.getVMOption(name);
            return Optional.of(option.getValue());
        } catch (IllegalArgumentException | LinkageError e) {
            return Optional.empty();
        }
    }
}
