package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.QuirkEffect;
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
        assertQuirkShown("quirk-adapt-multiply", QuirkFix.ADAPT_64BIT_MULTIPLY_O1, "arc_p");
        assertQuirkShown("quirk-shrink-arc-p", QuirkFix.SHRINK_CLAMPS_ARC_P_O2, "evicted[0]");
        assertQuirkShown("shrink-and-memory", QuirkFix.REAP_ABOVE_C_MIN_13794, "arc_c");
    }

    private static void assertQuirkShown(String name, QuirkFix fix, String field) {
        ConformanceTrace t = ConformanceTrace.builtin(name);
        var effect = QuirkEffect.firstEffect(t, settingsOf(t), fix);
        assertTrue(effect.isPresent(), name + " must show " + fix);
        assertEquals(field, effect.get().field(), name + ": " + effect.get());
    }

    @Test
    void aTraceWithoutTheQuirkShowsNoEffect() {
        ConformanceTrace t = ConformanceTrace.builtin("basic");
        assertTrue(QuirkEffect.firstEffect(t, settingsOf(t), QuirkFix.ADAPT_64BIT_MULTIPLY_O1).isEmpty(),
                "basic has no mfu_ghost hit, so the O1 fix cannot change it");
    }
}
