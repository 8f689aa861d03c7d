package org.arcref.conformance;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import org.arcref.zfs.QuirkFix;

/**
 * Whether a trace makes a quirk observable: the trace runs once without the fix and once with it
 * (all other settings equal), and the quirk is observable when the operation lines of the two runs
 * differ. The first difference says where and how.
 */
public final class QuirkEffect {

    private QuirkEffect() {
    }

    /**
     * @param trace the trace
     * @param settings the settings, with the trace's own applied; their own fixes are kept except {@code fix}
     * @param fix the quirk fix to toggle
     * @return the first operation line where the run without {@code fix} (expected) and with it
     *     (actual) differ, or empty if the trace does not show the quirk
     */
    public static Optional<Divergence> firstEffect(ConformanceTrace trace, ConformanceSettings settings, QuirkFix fix) {
        Set<QuirkFix> without = EnumSet.noneOf(QuirkFix.class);
        without.addAll(settings.config().fixes());
        without.remove(fix);
        Set<QuirkFix> with = EnumSet.copyOf(without);
        with.add(fix);
        ConformanceFile quirk = ConformanceFile.parse(
                ConformanceRun.of(trace, settings.withFixes(without), false).lines(), trace.name());
        ConformanceFile fixed = ConformanceFile.parse(
                ConformanceRun.of(trace, settings.withFixes(with), false).lines(), trace.name());
        return ConformanceComparer.firstOperationDivergence(quirk, fixed);
    }
}
