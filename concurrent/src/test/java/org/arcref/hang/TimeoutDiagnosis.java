package org.arcref.hang;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Turns a JUnit timeout into a failure that names the property and shows where every thread waits.
 *
 * <h2>Contract</h2>
 * When a test or lifecycle method ({@code @BeforeEach}, {@code @AfterEach}, ...) exceeds its
 * {@link org.junit.jupiter.api.Timeout} (or the {@code junit.jupiter.execution.timeout.default} of the module's
 * {@code junit-platform.properties}), JUnit throws a {@link TimeoutException}; this extension rethrows it as an
 * {@link AssertionError} whose message starts with the test's display name, which by the project's convention
 * names the property (L1, Z3, N1, ...), followed by a dump of every thread with its full stack and the lock it
 * waits for. Any other exception passes through unchanged.
 *
 * <p>Registered for every test class of a module by JUnit's extension auto-detection
 * ({@code META-INF/services/org.junit.jupiter.api.extension.Extension} here, enabled in
 * {@code junit-platform.properties}). The modules run timed methods in a separate thread
 * ({@code junit.jupiter.execution.timeout.thread.mode.default = SEPARATE_THREAD}): a thread blocked in an
 * uninterruptible wait (the zthr and the waiter queue wait as the kernel does) ignores the interrupt of the
 * same-thread mode, so only a separate thread lets the timeout end the test.
 */
public final class TimeoutDiagnosis implements TestExecutionExceptionHandler,
        LifecycleMethodExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
        throw diagnose(context.getDisplayName(), throwable);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw diagnose(context.getDisplayName(), throwable);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw diagnose(context.getDisplayName(), throwable);
    }

    @Override
    public void handleAfterEachMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw diagnose(context.getDisplayName(), throwable);
    }

    @Override
    public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable throwable)
            throws Throwable {
        throw diagnose(context.getDisplayName(), throwable);
    }

    /**
     * @param displayName the display name of the test (or class) that ran out of time
     * @param throwable what the method threw
     * @return an {@link AssertionError} naming {@code displayName} with a thread dump if {@code throwable} is a
     *     {@link TimeoutException}, else {@code throwable} itself
     */
    static Throwable diagnose(String displayName, Throwable throwable) {
        if (!(throwable instanceof TimeoutException)) {
            return throwable;
        }
        return new AssertionError(displayName + ": did not finish in time (" + throwable.getMessage()
                + "): a deadlock or a wait nobody ends breaks the property named here. Threads:\n" + threadDump(),
                throwable);
    }

    /** @return every live thread with its state, the lock it waits for or its owner, and its full stack */
    static String threadDump() {
        StringBuilder out = new StringBuilder();
        for (ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            out.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            LockInfo lock = t.getLockInfo();
            if (lock != null) {
                out.append(" on ").append(lock);
                if (t.getLockOwnerName() != null) {
                    out.append(" owned by \"").append(t.getLockOwnerName()).append('"');
                }
            }
            out.append('\n');
            for (StackTraceElement frame : t.getStackTrace()) {
                out.append("\tat ").append(frame).append('\n');
            }
            for (LockInfo held : t.getLockedSynchronizers()) {
                out.append("\tholds ").append(held).append('\n');
            }
        }
        return out.toString();
    }
}
