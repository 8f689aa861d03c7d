package org.arcref.trace;

import java.util.regex.Pattern;

/**
 * The fields of a delimited text line, and the checks the delimited formats ({@link CsvTrace}, {@link TwitterTrace},
 * {@link MsrTrace}) make of them, each failure a {@link TraceFormatException} naming the source, the line, the field,
 * the rule and the value.
 */
final class Fields {

    private Fields() {
    }

    /**
     * @param line a line
     * @param delimiter the character between fields
     * @return its fields, empty ones included (also at the end), none of them unquoted or stripped
     */
    static String[] split(String line, char delimiter) {
        return line.split(Pattern.quote(String.valueOf(delimiter)), -1);
    }

    /**
     * @param text a field
     * @param name the field's name in the format's description ({@code Offset})
     * @return its value, an ASCII decimal ({@link Decimal}) in [0, 2^63)
     * @throws TraceFormatException at {@code source:line} naming the field and the value otherwise
     */
    static long nonNegative(String text, String name, String source, long line) {
        long value;
        try {
            value = Decimal.parseLong(text);
        } catch (NumberFormatException e) {
            throw new TraceFormatException(source, line, name + " must be a non-negative decimal integer, was "
                    + Excerpt.of(text));
        }
        if (value < 0) {
            throw new TraceFormatException(source, line, name + " must be >= 0, was " + value);
        }
        return value;
    }

    /**
     * @param text a field
     * @param name the field's name
     * @return the field, unless it is empty
     * @throws TraceFormatException at {@code source:line} naming the field if it is empty
     */
    static String nonEmpty(String text, String name, String source, long line) {
        if (text.isEmpty()) {
            throw new TraceFormatException(source, line, name + " must not be empty");
        }
        return text;
    }
}
