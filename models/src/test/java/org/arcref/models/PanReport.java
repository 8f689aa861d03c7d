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
 * @param unreached         pan's "unreached in proctype" (and init) listings that name at least one statement no
 *                          explored state reached, one entry per process type with its lines; never claims are left
 *                          out (in a safety run they are not selected)
 * @param text              the whole report, as pan printed it
 */
public record PanReport(long errors, long statesStored, long transitions, long depthReached,
                        List<String> incompleteReasons, List<String> unreached, String text) {

    private static final Pattern ERRORS = Pattern.compile("errors: (\\d+)");
    private static final Pattern DEPTH = Pattern.compile("depth reached (\\d+)");
    private static final Pattern STORED = Pattern.compile("([0-9.e+]+) states, stored");
    private static final Pattern UNREACHED_COUNT = Pattern.compile("^\\s*\\((\\d+) of \\d+ states\\)");
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
                count(DEPTH, text), List.copyOf(incomplete), unreached(text), text);
    }

    /** The listings of pan's "unreached in proctype P" and "unreached in init" blocks that are not "(0 of N states)". */
    private static List<String> unreached(String text) {
        List<String> found = new ArrayList<>();
        StringBuilder block = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("unreached in ")) {
                block = line.startsWith("unreached in proctype ") || line.startsWith("unreached in init")
                        ? new StringBuilder(line.strip()) : null;
            } else if (block != null && line.startsWith("\t")) {
                Matcher m = UNREACHED_COUNT.matcher(line);
                if (m.find()) {
                    if (!m.group(1).equals("0")) {
                        found.add(block.append(": ").append(line.strip()).toString());
                    }
                    block = null;
                } else {
                    block.append("; ").append(line.strip());
                }
            } else {
                block = null;
            }
        }
        return List.copyOf(found);
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
