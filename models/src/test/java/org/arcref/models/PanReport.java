package org.arcref.models;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one run of a spin-generated verifier ({@code pan}) reported: errors, the size of the search, and whether the
 * search was complete.
 *
 * <p>A search is complete only when pan explored the whole state space: a full (not bitstate) search that hit
 * neither the depth limit ({@code -m}) nor the memory limit. An incomplete search proves nothing, so
 * {@link #incompleteReasons()} lists every sign of one that pan printed, and {@link SpinCheck} fails a faithful model
 * whose search was incomplete.
 *
 * @param errors            pan's {@code errors: N}
 * @param statesStored      pan's {@code N states, stored}
 * @param transitions       pan's {@code N transitions (= stored+matched)}, or {@code (= visited+matched)} in a cycle search
 * @param depthReached      pan's {@code depth reached N}
 * @param incompleteReasons every line of the report that says the search did not cover the whole state space
 * @param text              the whole report, as pan printed it
 */
public record PanReport(long errors, long statesStored, long transitions, long depthReached,
                        List<String> incompleteReasons, String text) {

    private static final Pattern ERRORS = Pattern.compile("errors: (\\d+)");
    private static final Pattern DEPTH = Pattern.compile("depth reached (\\d+)");
    private static final Pattern STORED = Pattern.compile("([0-9.e+]+) states, stored");
    private static final Pattern TRANSITIONS = Pattern.compile("([0-9.e+]+) transitions \\(= (?:stored|visited)\\+matched\\)");

    /** Report lines that mean the search stopped short of the whole state space. */
    private static final List<String> INCOMPLETE_MARKS = List.of(
            "max search depth too small",
            "Search not completed",
            "out of memory",
            "reached -DMEMLIM bound",
            "Bit statespace search");

    /**
     * Reads a pan report.
     *
     * @throws IllegalArgumentException when the text is not a pan report (no {@code errors:} line)
     */
    public static PanReport parse(String text) {
        Matcher errors = ERRORS.matcher(text);
        if (!errors.find()) {
            throw new IllegalArgumentException("pan report must contain an 'errors: N' line, was:\n" + text);
        }
        List<String> incomplete = new ArrayList<>();
        for (String line : text.split("\n")) {
            for (String mark : INCOMPLETE_MARKS) {
                if (line.contains(mark)) {
                    incomplete.add(line.strip());
                    break;
                }
            }
        }
        return new PanReport(Long.parseLong(errors.group(1)), count(STORED, text), count(TRANSITIONS, text),
                count(DEPTH, text), List.copyOf(incomplete), text);
    }

    /** True when pan explored the whole state space. */
    public boolean complete() {
        return incompleteReasons.isEmpty();
    }

    private static long count(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        // pan prints large counts as 1.2345e+06
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }
}
