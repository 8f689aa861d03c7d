package org.arcref.conformance;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
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
 * {@link BigInteger}) or {@link BigDecimal}s (as {@link BigDecimal#toString()} writes them); anything else is
 * rejected. In strings, {@code "} and {@code \} are escaped with a backslash, line feed, tab and carriage return
 * as {@code \n}, {@code \t}, {@code \r}, and every other character that {@link Excerpt#isPrintable} does not
 * allow (a control character such as ESC, DEL, the C1 controls, a bidirectional override) as a JSON unicode
 * escape (a backslash, {@code u} and four lower-case hex digits), so that JSON text printed on a terminal cannot
 * drive it; the value is the same for any JSON reader. The conformance format's bytes depend on these choices
 * (docs/conformance.md).
 *
 * <p>The text is made by Jackson's streaming generator ({@code jackson-core}), whose escaping is set to the
 * rules above by {@link TerminalSafeEscapes}.
 */
public final class JsonWriter {

    private static final JsonFactory FACTORY = new JsonFactoryBuilder()
            .characterEscapes(new TerminalSafeEscapes())
            .build();

    private JsonWriter() {
    }

    /**
     * @param value the value
     * @return its JSON text, without a line terminator
     * @throws IllegalArgumentException if the value or a part of it is of another type
     */
    public static String write(Object value) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            append(g, value);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string", e);
        }
        return out.toString();
    }

    private static void append(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Map<?, ?> map) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                g.writeFieldName((String) e.getKey());
                append(g, e.getValue());
            }
            g.writeEndObject();
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object element : list) {
                append(g, element);
            }
            g.writeEndArray();
        } else if (value instanceof String s) {
            g.writeString(s);
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Integer || value instanceof Long) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof BigInteger i) {
            g.writeNumber(i);
        } else if (value instanceof BigDecimal d) {
            g.writeNumber(d);
        } else {
            throw new IllegalArgumentException("value must be a JSON map, list, string, boolean, number or null, was "
                    + value.getClass().getName());
        }
    }

    /**
     * Jackson's escaping set to this writer's rules: its standard escapes for {@code "}, {@code \}, line feed, tab
     * and carriage return; a lower-case unicode escape for every other character {@link Excerpt#isPrintable} does
     * not allow (Jackson's own would write {@code \b} and {@code \f} and upper-case hex digits, and leave the C1
     * controls and format characters as they are).
     */
    private static final class TerminalSafeEscapes extends CharacterEscapes {

        private final int[] ascii = standardAsciiEscapesForJSON();

        TerminalSafeEscapes() {
            for (char c = 0; c < ascii.length; c++) {
                if (!Excerpt.isPrintable(c) && c != '\n' && c != '\t' && c != '\r') {
                    ascii[c] = ESCAPE_CUSTOM;
                }
            }
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return Excerpt.isPrintable((char) ch) ? null
                    : new SerializedString(String.format(Locale.ROOT, "\\u%04x", ch));
        }
    }
}
