package org.arcref.trace;

/**
 * Decimal integers as the project's inputs write them: ASCII digits only, an optional leading {@code -} where a
 * value may be negative, nothing else. {@link Long#parseLong} alone also takes a leading {@code +} and any
 * Unicode digit ({@code ١٢} would read as 12), which silently turns a wrong input into a number.
 */
public final class Decimal {

    private Decimal() {
    }

    /**
     * @param text a signed decimal
     * @return its value
     * @throws NumberFormatException if it is not {@code -?[0-9]+} or does not fit in a {@code long}
     */
    public static long parseLong(String text) {
        return Long.parseLong(checked(text, true));
    }

    /**
     * @param text an unsigned decimal
     * @return its value as a u64 (values from 2^63 up are negative as a {@code long})
     * @throws NumberFormatException if it is not {@code [0-9]+} or is 2^64 or more
     */
    public static long parseUnsignedLong(String text) {
        return Long.parseUnsignedLong(checked(text, false));
    }

    /**
     * @param text a signed decimal
     * @return its value
     * @throws NumberFormatException if it is not {@code -?[0-9]+} or does not fit in an {@code int}
     */
    public static int parseInt(String text) {
        return Integer.parseInt(checked(text, true));
    }

    private static String checked(String text, boolean signed) {
        int start = signed && text.startsWith("-") ? 1 : 0;
        if (text.length() == start) {
            throw new NumberFormatException("no digits");
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException("not an ASCII decimal digit at " + i);
            }
        }
        return text;
    }
}
