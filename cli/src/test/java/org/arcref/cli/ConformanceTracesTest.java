package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.QuirkEffect;
import org.arcref.conformance.Setting;
import org.arcref.conformance.Transition;
import org.arcref.zfs.QuirkFix;
import org.junit.jupiter.api.Test;

/**
 * The committed conformance traces together reach every {@link Transition}, and every quirk switch is
 * observable in its own trace: the output without the fix differs from the output with it.
 */
class ConformanceTracesTest {

    private static ConformanceSettings settingsOf(ConformanceTrace trace) {
        return trace.applySettings(ConformanceSettings.defaults());
    }

    @Test
    void theBuiltinTracesTogetherCoverEveryTransition() {
        Set<Transition> covered = EnumSet.noneOf(Transition.class);
        for (String name : ConformanceTrace.builtinNames()) {
            ConformanceTrace t = ConformanceTrace.builtin(name);
            covered.addAll(ConformanceRun.of(t, settingsOf(t), false).transitions());
        }
        Set<Transition> missing = EnumSet.allOf(Transition.class);
        missing.removeAll(covered);
        assertEquals(Set.of(), missing, "transitions no built-in trace reaches");
    }

    @Test
    void eachQuirkIsObservableInItsTrace() {
        assertQuirkShown("quirk-arc-p-growth", QuirkFix.ARC_P_GROWTH_CAP_14137, "arc_p");
        assertQuirkShown("quirk-adapt-multiply", QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS, "arc_p");
        assertQuirkShown("quirk-shrink-arc-p", QuirkFix.SHRINK_CLAMPS_ARC_P_OURS, "evicted[0]");
        assertQuirkShown("shrink-and-memory", QuirkFix.REAP_ABOVE_C_MIN_13794, "arc_c");
        assertQuirkShown("quirk-write-shares-linear", QuirkFix.WRITE_SHARES_LINEAR_12425, "arc_size");
        assertQuirkShown("quirk-adapt-mru-multiply", QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094, "arc_p");
    }

    /**
     * adapt-mru-ghost-wrap's hit wraps the MRU-ghost product while arc_p is below 2^31, so arc_p + (-2^31) wraps below
     * zero and the unsigned MIN caps it at arc_c - arc_p_min, which is also where #14094's 64-bit product lands: the
     * trace pins the wrap and the unsigned MIN, and it takes quirk-adapt-mru-multiply (arc_p at least 2^31) to show the
     * fix.
     */
    @Test
    void theMruGhostWrapBelowZeroHidesTheFix() {
        ConformanceTrace t = ConformanceTrace.builtin("adapt-mru-ghost-wrap");
        assertTrue(QuirkEffect.firstEffect(t, settingsOf(t), QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094).isEmpty(),
                "adapt-mru-ghost-wrap: #14094 lands where the wrap does");
    }

    private static void assertQuirkShown(String name, QuirkFix fix, String field) {
        ConformanceTrace t = ConformanceTrace.builtin(name);
        var effect = QuirkEffect.firstEffect(t, settingsOf(t), fix);
        assertTrue(effect.isPresent(), name + " must show " + fix);
        assertEquals(field, effect.get().field(), name + ": " + effect.get());
    }

    /**
     * The eviction lists come from the spec's eviction probe; over each trace they must add up to the
     * spec's own counters: {@code evictions} and {@code evicted_bytes} for data, {@code deleted} for
     * ghost headers.
     */
    @Test
    void evictedListsAddUpToTheEvictionStatistics() {
        for (String name : ConformanceTrace.builtinNames()) {
            ConformanceTrace t = ConformanceTrace.builtin(name);
            ConformanceFile out = ConformanceFile.parse(ConformanceRun.of(t, settingsOf(t), false).lines(), name);
            long data = 0;
            long bytes = 0;
            long deleted = 0;
            for (Map<String, Object> line : out.lines().subList(1, out.lines().size())) {
                for (Object o : (List<?>) line.get("evicted")) {
                    Map<?, ?> e = (Map<?, ?>) o;
                    if (e.get("to").equals("destroyed")) {
                        deleted++;
                    } else {
                        data++;
                        bytes += ((BigInteger) e.get("size")).longValueExact();
                    }
                }
            }
            Map<?, ?> stats = (Map<?, ?>) out.lines().get(out.lines().size() - 1).get("stats");
            assertEquals(BigInteger.valueOf(data), stats.get("evictions"), name + ": evictions");
            assertEquals(BigInteger.valueOf(bytes), stats.get("evicted_bytes"), name + ": evicted_bytes");
            assertEquals(BigInteger.valueOf(deleted), stats.get("deleted"), name + ": deleted");
        }
    }

    /**
     * d.24 in the conformance output: in {@code scatter} the held 4 KiB block of the first line costs its size
     * twice (header data and the reader's copy), and the same trace with {@code zfs_abd_scatter_enabled=0} first
     * differs there, in {@code arc_size} (4096: the buffer shares the data).
     */
    @Test
    void scatterAbdsAreObservableInTheirTrace() {
        ConformanceTrace t = ConformanceTrace.builtin("scatter");
        ConformanceSettings scatter = settingsOf(t);
        ConformanceFile on = ConformanceFile.parse(ConformanceRun.of(t, scatter, true).lines(), t.name());
        ConformanceFile off = ConformanceFile.parse(ConformanceRun.of(t,
                scatter.with(Setting.ZFS_ABD_SCATTER_ENABLED, 0), true).lines(), t.name());
        Map<String, Object> held = on.lines().get(1);
        assertEquals(BigInteger.valueOf(8192), held.get("arc_size"), "a held 4 KiB block of scatter data");
        assertEquals(BigInteger.valueOf(4096), ((Map<?, ?>) held.get("stats")).get("overhead_size"));
        assertEquals(BigInteger.valueOf(4096), off.lines().get(1).get("arc_size"), "the same block, linear");
        var divergence = ConformanceComparer.firstOperationDivergence(off, on);
        assertTrue(divergence.isPresent(), "zfs_abd_scatter_enabled must change the output of scatter");
        assertEquals("arc_size", divergence.get().field(), divergence.get().toString());
        assertEquals(2, divergence.get().line(), "the output's line 2: the trace's first operation");
    }

    @Test
    void aTraceWithoutTheQuirkShowsNoEffect() {
        ConformanceTrace t = ConformanceTrace.builtin("basic");
        assertTrue(QuirkEffect.firstEffect(t, settingsOf(t), QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS).isEmpty(),
                "basic has no mfu_ghost hit, so the O1 fix cannot change it");
    }
}
