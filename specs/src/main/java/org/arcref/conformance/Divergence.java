package org.arcref.conformance;

/**
 * The first place where two conformance outputs differ.
 *
 * @param line the 1-based line (1 is the header; operation {@code i} is on line {@code i + 1})
 * @param field the field's path, such as {@code states.mru.esize} or {@code evicted[0].key}; empty
 *     when a whole line is missing
 * @param expected the expected value as JSON text, or {@code (absent)}
 * @param actual the actual value as JSON text, or {@code (absent)}
 */
public record Divergence(long line, String field, String expected, String actual) {

    /** The text standing for a field or line that is not there. */
    public static final String ABSENT = "(absent)";
}
