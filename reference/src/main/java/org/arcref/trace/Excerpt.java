package org.arcref.trace;

/**
 * How an error message quotes text from its input: in double quotes, at most {@value #MAX_CHARS} characters of it,
 * with control characters and other unprintable ones written as escapes ({@code \t}, {@code \u0000}), so that a
 * message stays one short, printable line whatever the input held (a megabyte-long line, binary data).
 */
public final class Excerpt {

    /** The most characters of the input a message shows. */
    public static final int MAX_CHARS = 100;

    private Excerpt() {
    }

    /**
     * @param text the offending text
     * @return {@code "text"}, or its first {@value #MAX_CHARS} characters followed by {@code ... (N characters)}
     */
    public static String of(String text) {
        return '"' + escaped(text, MAX_CHARS, true) + '"'
                + (text.length() > MAX_CHARS ? "... (" + text.length() + " characters)" : "");
    }

    /**
     * @param text a message that may hold input
     * @param max the most characters of it to keep
     * @return the first {@code max} characters with unprintable ones escaped, and {@code ...} if any were cut
     */
    public static String clip(String text, int max) {
        return escaped(text, max, false) + (text.length() > max ? "..." : "");
    }

    private static String escaped(String text, int max, boolean quotes) {
        StringBuilder sb = new StringBuilder(max + 32);
        int shown = Math.min(text.length(), max);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (quotes && (c == '"' || c == '\\')) {
                sb.append('\\').append(c);
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (c < 0x20 || c == 0x7f || !printable(c)) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static boolean printable(char c) {
        int type = Character.getType(c);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.PRIVATE_USE && type != Character.SURROGATE && c != '\ufffd';
    }
}
