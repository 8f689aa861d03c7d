package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.TimeUnit;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * Proof that the soak's accounting check (N1, R4) can fail: the same workload and the same check as
 * {@link ConcurrentArcSoakTest}, on {@link BrokenArcs#unlockedSizeUpdate}, whose state sizes are updated by a
 * non-atomic read-modify-write. Rounds of {@value #ROUND_MILLIS} ms, each on a fresh cache, run until the check
 * fails, for at most {@value #MAX_SECONDS} s; the test fails if no round caught the lost update.
 */
class UnlockedSizeUpdateTest {

    private static final long ROUND_MILLIS = 500;
    private static final long MAX_SECONDS = 10;

    @Test
    @DisplayName("N1: the soak's accounting check catches a non-atomic state-size update within 10 s")
    void accountingCheckCatchesUnlockedSizeUpdate() throws InterruptedException {
        ArcConfig config = ArcConfig.small(256L << 10, 512L << 10, 4096)
                .withSublists(ConcurrentArc.defaultSublists());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
        AssertionFailedError caught = null;
        int rounds = 0;
        while (caught == null && System.nanoTime() < deadline) {
            rounds++;
            ConcurrentArc<Long> arc = BrokenArcs.unlockedSizeUpdate(config, MemoryModel.plentiful(),
                    ArcOptions.zfs());
            ConcurrentArcSoakTest.Soak soak = ConcurrentArcSoakTest.run(arc, TimeUnit.MILLISECONDS.toNanos(ROUND_MILLIS));
            soak.rethrowFailure();
            try {
                ConcurrentArcSoakTest.assertAccountingAddsUp(soak.snapshot());
            } catch (AssertionFailedError e) {
                caught = e;
            }
        }
        System.out.printf("unlocked size update: %s after %d round(s) of %d ms%n",
                caught == null ? "not caught" : "caught (" + caught.getMessage() + ")", rounds, ROUND_MILLIS);
        assertNotNull(caught, "the accounting check missed the non-atomic size update in " + rounds + " rounds");
    }
}
