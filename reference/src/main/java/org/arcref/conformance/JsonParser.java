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
 * <p>Errors are {@link IllegalArgumentException}s whose message names the 1-based column and what
 * was expected, as {@code column 12: expected ',' or '}', got 'x'}. Objects and arrays may nest at most
 * {@value #MAX_DEPTH} deep (a conformance line nests three): deeper input is an error, never a
 * {@link StackOverflowError} of the recursive descent.
 */
public final class JsonParser {

    /** The deepest nesting of objects and arrays accepted. */
    public static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;
    private int depth;

    private JsonParser(String text) {
        this.text = text;
    }

    /**
     * @param text one JSON value, optionally surrounded by white space
     * @return the value
     * @throws IllegalArgumentException naming the column of the first error
     */
    public static Object parse(String text) {
        JsonParser p = new JsonParser(text);
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
                    if (pos + 4 > text.length()) {
                        throw error("expected 4 hex digits after \\u");
                    }
                    try {
                        sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException ex) {
                        throw error("expected 4 hex digits after \\u");
                    }
                    pos += 4;
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
        String s = text.substring(start, pos);
        return integer ? new BigInteger(s) : new BigDecimal(s);
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
        return new IllegalArgumentException("column " + (pos + 1) + ": " + problem + ", got " + got);
    }
}
