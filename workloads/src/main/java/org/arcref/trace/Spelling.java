package org.arcref.trace;

import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean": the known name closest to a misspelled one, by Levenshtein distance (single-character insertions,
 * deletions and substitutions), if it is close enough to be what was meant: at most one edit per three characters of
 * the misspelling, at least one and at most {@value #MAX_EDITS}, so that a short stranger ({@code xyz}) matches
 * nothing. Ties go to the first of the known names in their order.
 */
public final class Spelling {

    /** The most edits between a misspelling and the name suggested for it. */
    public static final int MAX_EDITS = 3;

    private Spelling() {
    }

    /**
     * @param given the misspelled name
     * @param known the names it may have meant
     * @return the closest known name within the allowed edits, if any
     */
    public static Optional<String> closest(String given, Collection<String> known) {
        int allowed = Math.min(MAX_EDITS, Math.max(1, given.length() / 3));
        String best = null;
        int distance = allowed + 1;
        for (String name : known) {
            int d = distance(name, given, distance);
            if (d < distance) {
                best = name;
                distance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The Levenshtein distance of two strings, or {@code bound} if it is certainly at least that. */
    private static int distance(String a, String b, int bound) {
        if (Math.abs(a.length() - b.length()) >= bound) {
            return bound;
        }
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return Math.min(bound, previous[b.length()]);
    }
}
