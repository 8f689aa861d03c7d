package org.arcref.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;

/**
 * The conformance output of the spec for one trace: the header line and one line per operation, as
 * JSON text, and the {@link Transition}s the trace reached.
 *
 * @param lines the lines, without terminators: the header, then one per operation
 * @param transitions the transitions some operation showed
 */
public record ConformanceRun(List<String> lines, Set<Transition> transitions) {

    /** Copies the collections. */
    public ConformanceRun {
        lines = List.copyOf(lines);
        transitions = Collections.unmodifiableSet(transitions.isEmpty() ? EnumSet.noneOf(Transition.class)
                : EnumSet.copyOf(transitions));
    }

    /**
     * Runs a trace through a fresh {@link ZfsArc}.
     *
     * @param trace the trace
     * @param settings the settings, with the trace's own already applied
     * @param headers whether each operation line lists every header
     * @return the output
     * @throws TraceFormatException naming the trace and line of an operation the spec rejects
     */
    public static ConformanceRun of(ConformanceTrace trace, ConformanceSettings settings, boolean headers) {
        List<Eviction> evicted = new ArrayList<>();
        ZfsArc arc = new ZfsArc(settings.config(), settings.memory(), evicted::add);
        List<String> lines = new ArrayList<>();
        Set<Transition> transitions = EnumSet.noneOf(Transition.class);
        lines.add(JsonWriter.write(ConformanceFormat.header(trace.name(), trace.sha256(), settings, headers)));
        long index = 0;
        ArcSnapshot before = arc.snapshot();
        for (ConformanceTrace.Step step : trace.steps()) {
            evicted.clear();
            Outcome outcome;
            try {
                outcome = step.operation().applyTo(arc);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new TraceFormatException(trace.name(), step.line(), "the spec rejects \""
                        + step.operation().toTraceLine() + "\": " + e.getMessage());
            }
            ArcSnapshot after = arc.snapshot();
            transitions.addAll(Transition.observed(step.operation(), outcome, evicted, before, after));
            lines.add(JsonWriter.write(ConformanceFormat.step(++index, step, outcome, evicted, after, headers)));
            before = after;
        }
        return new ConformanceRun(lines, transitions);
    }
}
