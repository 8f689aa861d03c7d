package org.arcref.conformance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.Zfs22Arc;
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
     * Runs a trace through a fresh ARC of the settings' engine ({@link ZfsArc} or {@link Zfs22Arc}); only
     * zfs-2.1.1's engine reports {@link Transition}s.
     *
     * @param trace the trace
     * @param settings the settings, with the trace's own already applied
     * @param headers whether each operation line lists every header
     * @return the output
     * @throws TraceFormatException naming the trace and line of an operation the spec rejects
     */
    public static ConformanceRun of(ConformanceTrace trace, ConformanceSettings settings, boolean headers) {
        Lines run = new Lines(trace, settings, headers);
        List<String> lines = new ArrayList<>();
        run.forEachRemaining(lines::add);
        return new ConformanceRun(lines, run.transitions);
    }

    /**
     * Runs a trace through a fresh {@link ZfsArc} one operation per line asked for, so that a long run is
     * compared as it is made ({@code arc verify} with one file) without holding its output.
     *
     * @param trace the trace
     * @param settings the settings, with the trace's own already applied
     * @param headers whether each operation line lists every header
     * @return the header line, then each operation's line, run when it is asked for; {@code next()} throws a
     *     {@link TraceFormatException} naming the trace and line of an operation the spec rejects
     */
    public static Lines lines(ConformanceTrace trace, ConformanceSettings settings, boolean headers) {
        return new Lines(trace, settings, headers);
    }

    /** The run, one line per {@link #next()}: the header, then each operation, applied when its line is asked for. */
    public static final class Lines implements Iterator<String> {
        private final ConformanceTrace trace;
        private final boolean headers;
        private final List<Eviction> evicted = new ArrayList<>();
        private final ArcOperations arc;
        private final Iterator<ConformanceTrace.Step> steps;
        private final Set<Transition> transitions = EnumSet.noneOf(Transition.class);
        private String header;
        private ArcSnapshot before;
        private long index;

        private Lines(ConformanceTrace trace, ConformanceSettings settings, boolean headers) {
            this.trace = trace;
            this.headers = headers;
            this.arc = settings.newArc(evicted::add);
            this.steps = trace.steps().iterator();
            this.header = JsonWriter.write(ConformanceFormat.header(trace.name(), trace.sha256(), settings, headers));
            this.before = arc instanceof ZfsArc z ? z.snapshot() : null;
        }

        /** @return how many operations have been run so far */
        public long operations() {
            return index;
        }

        /** @return the transitions the operations run so far showed, as they stand now */
        public Set<Transition> transitions() {
            return Collections.unmodifiableSet(transitions);
        }

        @Override
        public boolean hasNext() {
            return header != null || steps.hasNext();
        }

        @Override
        public String next() {
            if (header != null) {
                String h = header;
                header = null;
                return h;
            }
            ConformanceTrace.Step step = steps.next();
            evicted.clear();
            Outcome outcome;
            try {
                outcome = step.operation().applyTo(arc);
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new TraceFormatException(trace.name(), step.line(), "the spec rejects \""
                        + step.operation().toTraceLine() + "\": " + e.getMessage());
            }
            if (arc instanceof ZfsArc z) {
                ArcSnapshot after = z.snapshot();
                transitions.addAll(Transition.observed(step.operation(), outcome, evicted, before, after));
                before = after;
                return JsonWriter.write(ConformanceFormat.step(++index, step, outcome, evicted, after, headers));
            }
            return JsonWriter.write(ConformanceFormat.step22(++index, step, outcome, evicted,
                    ((Zfs22Arc) arc).snapshot(), headers));
        }
    }
}
