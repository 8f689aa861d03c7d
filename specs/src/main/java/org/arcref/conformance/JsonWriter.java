package org.arcref.conformance;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.arcref.trace.Excerpt;

/**
 * Writes a JSON value as one line of compact text, fields in the map's iteration order, so that the
 * same value always gives the same bytes. Values are {@link Map}s with string keys, {@link List}s,
 * {@link String}s, {@link Boolean}s and integers ({@link Integer}, {@link Long} as signed,
 * {@link BigInteger}) or {@link BigDecimal}s; anything else is rejected. A character of a string that
 * {@link Excerpt#isPrintable} does not allow (a control character such as ESC, DEL, the C1 controls, a
 * bidirectional override) is written as a JSON unicode escape (a backslash, {@code u} and four hex digits),
 * so that JSON text printed on a terminal cannot drive it; the value is the same for any JSON reader.
 */
public final class JsonWriter {

    private JsonWriter() {
    }

    /**
     * @param value the value
     * @return its JSON text, without a line terminator
     * @throws IllegalArgumentException if the value or a part of it is of another type
     */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, value);
        return sb.toString();
    }

    private static void append(StringBuilder sb, Object value) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof Map<?, ?> map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                string(sb, (String) e.getKey());
                sb.append(':');
                append(sb, e.getValue());
            }
            sb.append('}');
        } else if (value instanceof List<?> list) {
            sb.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                append(sb, list.get(i));
            }
            sb.append(']');
        } else if (value instanceof String s) {
            string(sb, s);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long
                || value instanceof BigInteger) {
            sb.append(value);
        } else if (value instanceof BigDecimal d) {
            sb.append(d.toString());
        } else {
            throw new IllegalArgumentException("value must be a JSON map, list, string, boolean, number or null, was "
                    + value.getClass().getName());
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (!Excerpt.isPrintable(c)) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
