package org.arcref.conformance;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.arcref.zfs.ZfsEngine;

/**
 * Verifies a conformance output against the expected one as both are read, one line of each at a time, and
 * reports what differs: every differing field of each divergent line ({@link ConformanceComparer}), up to a
 * number of divergent lines, the expected operations leading to each, and an output that ends early or goes on
 * too long. What it holds does not grow with the outputs: the two lines being compared, the last
 * {@code context} operations' summaries, and the divergences found (at most {@code max} lines' worth).
 *
 * <p>Algorithm: the headers are compared first (their {@code trace} paths are not compared, the trace being
 * identified by {@code trace_sha256}; when the paths differ a note says so; when their {@code revision}s differ a
 * note names the revisions between them and what each changed, and the lines show whether the port behaves as the
 * expected revision). Then line {@code i} of each output is
 * read, the expected operation's summary pushed on a queue of the last {@code context}, and the lines compared;
 * a line with differences is recorded with a copy of the queue. The comparison stops after {@code max} divergent
 * lines, or when either output ends; if only one has ended, the rest of the other is counted, not parsed, for
 * the message naming how many operations each has.
 */
public final class ConformanceVerifier {

    /**
     * How much is compared and reported.
     *
     * @param context the expected operations shown up to each divergent one, at least 0
     * @param max the divergent lines reported before stopping, at least 1
     * @param filter the fields compared
     */
    public record Settings(int context, int max, FieldFilter filter) {

        /** @throws IllegalArgumentException naming the option, the rule and the value */
        public Settings {
            if (context < 0) {
                throw new IllegalArgumentException("--context must be >= 0, was " + context);
            }
            if (max < 1) {
                throw new IllegalArgumentException("--max must be >= 1, was " + max);
            }
            Objects.requireNonNull(filter, "filter");
        }
    }

    /**
     * An expected operation, as the report lists it.
     *
     * @param operation its 1-based number
     * @param traceLine its {@code line} field: where the trace has it
     * @param op its {@code op} field
     * @param outcome its {@code outcome} field
     */
    public record Step(long operation, String traceLine, String op, String outcome) {
    }

    /**
     * A line where the outputs differ.
     *
     * @param line the 1-based line (1: the headers)
     * @param fields every differing field, in comparison order
     * @param leadingTo the expected operations up to and including this one, at most {@code context}
     */
    public record DivergentLine(long line, List<Divergence> fields, List<Step> leadingTo) {

        /** Copies the lists. */
        public DivergentLine {
            fields = List.copyOf(fields);
            leadingTo = List.copyOf(leadingTo);
        }
    }

    /**
     * One output has fewer operations than the other.
     *
     * @param message what happened, in words, naming both counts
     * @param leadingTo the last expected operations before the end, at most {@code context}
     */
    public record Ending(String message, List<Step> leadingTo) {

        /** Copies the list. */
        public Ending {
            leadingTo = List.copyOf(leadingTo);
        }
    }

    /**
     * The result.
     *
     * @param expected the expected output's name
     * @param actual the checked output's name
     * @param lines the lines compared, the headers included
     * @param notes what the reader should know that is not a divergence
     * @param divergences the divergent lines, at most {@code max}
     * @param ending how the outputs' lengths differ, or {@code null} when they do not (or were not read to their
     *     end)
     * @param stoppedAtMax whether the comparison stopped at {@code max} divergent lines
     */
    public record Verdict(String expected, String actual, long lines, List<String> notes,
            List<DivergentLine> divergences, Ending ending, boolean stoppedAtMax) {

        /** Copies the lists. */
        public Verdict {
            notes = List.copyOf(notes);
            divergences = List.copyOf(divergences);
        }

        /** @return whether the outputs agree in every compared field and in length */
        public boolean matches() {
            return divergences.isEmpty() && ending == null;
        }
    }

    private ConformanceVerifier() {
    }

    /**
     * @param expected the reference output, its header read
     * @param actual the output to check, its header read
     * @param settings what is compared and reported
     * @param progress told the number of each line pair compared
     * @return the verdict
     * @throws org.arcref.trace.TraceFormatException naming the source and line of a malformed line of either
     * @throws java.io.UncheckedIOException naming the source if reading either fails
     */
    public static Verdict verify(ConformanceReader expected, ConformanceReader actual, Settings settings,
            LongConsumer progress) {
        List<String> notes = new ArrayList<>();
        Object expectedTrace = expected.header().get(ConformanceComparer.TRACE_PATH);
        Object actualTrace = actual.header().get(ConformanceComparer.TRACE_PATH);
        if (!Objects.equals(expectedTrace, actualTrace)) {
            boolean same = Objects.equals(expected.header().get("trace_sha256"), actual.header().get("trace_sha256"));
            notes.add("the headers' trace paths differ (expected " + JsonWriter.write(expectedTrace) + ", actual "
                    + JsonWriter.write(actualTrace) + ")" + (same ? "; their trace_sha256 agree, so the trace is the "
                    + "same" : ""));
        }
        revisionNote(expected.header(), actual.header()).ifPresent(notes::add);
        List<DivergentLine> divergences = new ArrayList<>();
        Deque<Step> recent = new ArrayDeque<>();
        List<Divergence> header = ConformanceComparer.differences(1, expected.header(), actual.header(),
                settings.filter());
        if (!header.isEmpty()) {
            divergences.add(new DivergentLine(1, header, List.of()));
        }
        long line = 1;
        Ending ending = null;
        while (divergences.size() < settings.max()) {
            Map<String, Object> e = expected.next();
            Map<String, Object> a = actual.next();
            if (e == null && a == null) {
                break;
            }
            long done = line - 1;
            if (a == null) {
                long total = done + 1 + expected.skipToEnd();
                ending = new Ending("the port's output ends after operation " + done + " (expected " + total
                        + " operations)", List.copyOf(recent));
                break;
            }
            if (e == null) {
                long total = done + 1 + actual.skipToEnd();
                ending = new Ending("the port's output has more operations than expected: " + total + ", where the "
                        + "expected output ends after operation " + done, List.copyOf(recent));
                break;
            }
            line++;
            if (settings.context() > 0) {
                if (recent.size() == settings.context()) {
                    recent.removeFirst();
                }
                recent.addLast(new Step(line - 1, plain(e.get("line")), plain(e.get("op")), plain(e.get("outcome"))));
            }
            List<Divergence> d = ConformanceComparer.differences(line, e, a, settings.filter());
            if (!d.isEmpty()) {
                divergences.add(new DivergentLine(line, d, List.copyOf(recent)));
            }
            progress.accept(line);
        }
        return new Verdict(expected.source(), actual.source(), line, notes, divergences, ending,
                divergences.size() == settings.max());
    }

    /**
     * @param expected the expected output's header, checked by {@link ConformanceReader}
     * @param actual the actual output's header, checked likewise
     * @return when the two claim different revisions of the expected output's engine, a note naming both and each
     *     revision between them with what it changed, or a revision this tool does not know
     */
    private static Optional<String> revisionNote(Map<String, Object> expected, Map<String, Object> actual) {
        int e = ConformanceFormat.revision(expected);
        int a = ConformanceFormat.revision(actual);
        if (e == a) {
            return Optional.empty();
        }
        ZfsEngine engine = ConformanceFormat.release(expected).engine();
        StringBuilder note = new StringBuilder("the outputs follow different revisions of zfs-" + engine.version()
                + "'s engine: expected " + e + ", actual " + a + "; docs/porting.md's changelog says what a port "
                + "changes between them");
        int known = BehaviourRevision.current(engine);
        if (Math.max(e, a) > known) {
            note.append(" (this tool knows revisions up to ").append(known).append(')');
        }
        for (BehaviourRevision r : BehaviourRevision.between(engine, e, a)) {
            note.append("; revision ").append(r.number()).append(": ").append(r.change()).append(" (trace ")
                    .append(r.trace()).append(')');
        }
        return Optional.of(note.toString());
    }

    private static String plain(Object value) {
        return value instanceof String s ? s : JsonWriter.write(value);
    }
}
