package org.arcref.conformance;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arcref.trace.Excerpt;

/**
 * Parses one JSON text (RFC 8259) into the values {@link JsonWriter} writes: objects as
 * {@link LinkedHashMap}s in document order, arrays as {@link List}s, strings, booleans, integers as
 * {@link BigInteger} (exact, any size, so a u64 is never rounded), other numbers as
 * {@link BigDecimal}, and {@code null} as Java {@code null}. A duplicate key is an error.
 *
 * <p>Errors are {@link IllegalArgumentException}s whose message is one line naming the 1-based column, what
 * was expected and what was found, and quoting the text around the column (at most {@value #AROUND} characters
 * either side, escaped by {@link Excerpt}), as {@code column 3: expected the end of the line, got '2', in "1 2"};
 * no message of Java's own number parsing is passed on.
 *
 * <p>Limits, so that the input cannot make parsing slow or deep: objects and arrays may nest at most
 * {@value #MAX_DEPTH} deep (a conformance line nests three): deeper input is an error, never a
 * {@link StackOverflowError} of the recursive descent. A number may be at most {@value #MAX_NUMBER_CHARS}
 * characters long (a u64 has 20 digits): a longer one is an error found by scanning its characters, before any
 * {@link BigInteger} or {@link BigDecimal} is made (their parsing takes more than linear time in the digits), so
 * parsing takes time linear in the text. A number whose exponent {@link BigDecimal} cannot represent (beyond
 * about -2^31..2^31) is an error too.
 */
public final class JsonParser {

    /** The deepest nesting of objects and arrays accepted. */
    public static final int MAX_DEPTH = 64;

    /** The most characters of one number (sign, digits, point and exponent); a u64 has 20 digits. */
    public static final int MAX_NUMBER_CHARS = 40;

    /** The most characters an error message quotes on either side of the column it names. */
    private static final int AROUND = 20;

    private final String text;
    private final int maxNumberChars;
    private int pos;
    private int depth;

    private JsonParser(String text, int maxNumberChars) {
        this.text = text;
        this.maxNumberChars = maxNumberChars;
    }

    /**
     * @param text one JSON value, optionally surrounded by white space
     * @return the value
     * @throws IllegalArgumentException naming the column of the first error
     */
    public static Object parse(String text) {
        return parse(text, MAX_NUMBER_CHARS);
    }

    /**
     * Parses JSON text that {@link JsonWriter} wrote from parsed values, whose numbers may be longer than
     * {@value #MAX_NUMBER_CHARS} characters only because {@link BigDecimal#toString()} writes a number in its own
     * form ({@code 1234e99} as {@code 1.234E+102}).
     *
     * @param text one JSON value, optionally surrounded by white space
     * @param maxNumberChars the most characters of one number
     * @return the value
     * @throws IllegalArgumentException naming the column of the first error
     */
    public static Object parse(String text, int maxNumberChars) {
        JsonParser p = new JsonParser(text, maxNumberChars);
        p.skipSpace();
        Object value = p.value();
        p.skipSpace();
        if (p.pos < text.length()) {
            throw p.error("expected the end of the line");
        }
        return value;
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("expected a value");
        }
        char c = text.charAt(pos);
        if ((c == '{' || c == '[') && depth == MAX_DEPTH) {
            throw error("objects and arrays nested deeper than " + MAX_DEPTH + " levels");
        }
        return switch (c) {
            case '{' -> nested(this::object);
            case '[' -> nested(this::array);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw error("expected a value");
            }
        };
    }

    private Object nested(java.util.function.Supplier<Object> parse) {
        depth++;
        Object v = parse.get();
        depth--;
        return v;
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipSpace();
        if (peek('}')) {
            pos++;
            return map;
        }
        while (true) {
            skipSpace();
            if (!peek('"')) {
                throw error("expected a field name in double quotes");
            }
            int keyAt = pos;
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            Object v = value();
            if (map.containsKey(key)) {
                pos = keyAt;
                throw error("duplicate field " + Excerpt.of(key));
            }
            map.put(key, v);
            skipSpace();
            if (peek(',')) {
                pos++;
            } else if (peek('}')) {
                pos++;
                return map;
            } else {
                throw error("expected ',' or '}'");
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        skipSpace();
        if (peek(']')) {
            pos++;
            return list;
        }
        while (true) {
            skipSpace();
            list.add(value());
            skipSpace();
            if (peek(',')) {
                pos++;
            } else if (peek(']')) {
                pos++;
                return list;
            } else {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        StringBuilder sb = new StringBuilder();
        pos++;
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("control character in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= text.length()) {
                break;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = pos < text.length() ? hexDigit(text.charAt(pos)) : -1;
                        if (digit < 0) {
                            throw error("expected 4 hex digits after \\u");
                        }
                        code = code * 16 + digit;
                        pos++;
                    }
                    sb.append((char) code);
                }
                default -> {
                    pos--;
                    throw error("unknown escape \\" + e);
                }
            }
        }
        throw error("unterminated string");
    }

    private Object number() {
        int start = pos;
        if (peek('-')) {
            pos++;
        }
        if (peek('0')) {
            pos++;
        } else if (digitAt()) {
            digits();
        } else {
            throw error("expected a digit");
        }
        boolean integer = true;
        if (peek('.')) {
            integer = false;
            pos++;
            requireDigit();
            digits();
        }
        if (peek('e') || peek('E')) {
            integer = false;
            pos++;
            if (peek('+') || peek('-')) {
                pos++;
            }
            requireDigit();
            digits();
        }
        if (pos - start > maxNumberChars) {
            int end = pos;
            pos = start;
            throw error("a number must have at most " + maxNumberChars + " characters (a u64 has 20 digits), "
                    + "this one has " + (end - start));
        }
        String s = text.substring(start, pos);
        if (integer) {
            return new BigInteger(s);
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("a number's exponent must be within -2^31..2^31 (a decimal's 32-bit scale)");
        }
    }

    /** @return the value of an ASCII hex digit, or -1 (Character.digit also takes other scripts' digits) */
    private static int hexDigit(char c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F'
                ? c - 'A' + 10 : -1;
    }

    private void requireDigit() {
        if (!digitAt()) {
            throw error("expected a digit");
        }
    }

    private void digits() {
        while (digitAt()) {
            pos++;
        }
    }

    private boolean digitAt() {
        return pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9';
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw error("expected a value");
        }
        pos += word.length();
        return value;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return;
            }
            pos++;
        }
    }

    private IllegalArgumentException error(String problem) {
        String got = pos >= text.length() ? "the end of the line"
                : text.charAt(pos) >= 0x20 && text.charAt(pos) < 0x7f ? "'" + text.charAt(pos) + "'"
                : Excerpt.of(text.substring(pos, pos + 1));
        String around = text.substring(Math.max(0, pos - AROUND), Math.min(text.length(), pos + AROUND));
        return new IllegalArgumentException("column " + (pos + 1) + ": " + problem + ", got " + got + ", in "
                + Excerpt.of(around));
    }
}
