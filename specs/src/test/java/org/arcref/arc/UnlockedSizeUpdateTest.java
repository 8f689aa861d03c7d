package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.property.Property;
import org.arcref.soak.Soak;
import org.arcref.soak.SoakResult;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.MemoryModel;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
        ArcConfig config = ConcurrentArcSoakTest.soakConfig();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
        String caught = null;
        int rounds = 0;
        while (caught == null && System.nanoTime() < deadline) {
            rounds++;
            ConcurrentArc<Long> arc = BrokenArcs.unlockedSizeUpdate(config, MemoryModel.plentiful(),
                    ArcOptions.zfs());
            SoakResult soak = new Soak(4).run(arc, TimeUnit.MILLISECONDS.toNanos(ROUND_MILLIS), () -> false,
                    new AtomicLong());
            caught = soak.violations().stream()
                    .filter(v -> v.property() == Property.R3 || v.property() == Property.R4)
                    .map(v -> v.property() + ": " + v.detail()).findFirst().orElse(null);
        }
        System.out.printf("unlocked size update: %s after %d round(s) of %d ms%n",
                caught == null ? "not caught" : "caught (" + caught + ")", rounds, ROUND_MILLIS);
        assertNotNull(caught, "the accounting check missed the non-atomic size update in " + rounds + " rounds");
    }
}
