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

    /**
     * A value as a report prints it, unquoted (it is JSON text or a word already, whose own quotes and backslashes
     * stay as they are): unprintable characters escaped as {@link #of} escapes them, and a value longer than
     * {@code max} cut, with its length said, so that a report line shows how much was left out.
     *
     * @param text a value taken from an input
     * @param max the most characters of it to show, at least 1
     * @return the first {@code max} characters escaped, followed by {@code ... (N characters)} if any were cut
     */
    public static String field(String text, int max) {
        return escaped(text, max, false) + (text.length() > max ? "... (" + text.length() + " characters)" : "");
    }

    /**
     * The one rule of what a report may print as it is: not a control character (C0, DEL, C1), not a format
     * character (such as the bidirectional override U+202E), not unassigned, private-use or a surrogate,
     * and not the replacement character that stands for undecodable bytes.
     *
     * @param c a character
     * @return whether it may be printed as it is
     */
    public static boolean isPrintable(char c) {
        return c >= 0x20 && c != 0x7f && printable(c);
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
            } else if (!isPrintable(c)) {
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
