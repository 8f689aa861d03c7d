package org.arcref.zthr;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Who may call what, and that a request leaves the zthr's locks free for the next caller: {@code waitCycleDone}
 * from the zthr's own thread is refused (it would wait for itself), and after {@code resume} or {@code destroy}
 * returns on one thread, another thread's {@code cancel} or {@code resume} proceeds (Z4).
 */
class ZthrCallerRulesTest {

    private static final long JOIN_MS = TimeUnit.SECONDS.toMillis(10);

    @Test
    @DisplayName("waitCycleDone from the zthr's own thread is refused instead of waiting for itself")
    void waitCycleDoneFromOwnThreadIsRefused() throws Exception {
        AtomicBoolean work = new AtomicBoolean(true);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Zthr zthr = Zthr.create("own-wait", z -> work.get(), z -> {
            work.set(false);
            try {
                z.waitCycleDone();
            } catch (Throwable t) {
                thrown.set(t);
            }
            done.countDown();
        }, ZthrPriority.DEFCLSYSPRI);
        try {
            assertTrue(done.await(10, TimeUnit.SECONDS), "the work function returned");
            assertInstanceOf(IllegalStateException.class, thrown.get());
        } finally {
            zthr.cancel();
            zthr.destroy();
        }
    }

    @Test
    @DisplayName("Z4: after resume returns, another thread's cancel proceeds")
    void resumeReleasesTheRequestLock() throws Exception {
        Zthr zthr = Zthr.create("resume-release", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI);
        zthr.cancel();
        zthr.resume();
        Thread canceller = new Thread(zthr::cancel);
        canceller.start();
        canceller.join(JOIN_MS);
        assertFalse(canceller.isAlive(), "cancel from another thread returned");
        assertFalse(zthr.isRunning());
        zthr.destroy();
    }

    @Test
    @DisplayName("Z4: after destroy returns, another thread's resume is refused at once instead of waiting")
    void destroyReleasesTheStateLock() throws Exception {
        Zthr zthr = Zthr.create("destroy-release", z -> false, z -> { }, ZthrPriority.DEFCLSYSPRI);
        zthr.cancel();
        zthr.destroy();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread resumer = new Thread(() -> {
            try {
                zthr.resume();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        resumer.start();
        resumer.join(JOIN_MS);
        assertFalse(resumer.isAlive(), "resume from another thread returned");
        assertInstanceOf(IllegalStateException.class, thrown.get(), "a destroyed zthr refuses resume");
    }
}
