package org.arcref.conformance;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 * <p>Errors are {@link IllegalArgumentException}s whose message is one line naming the 1-based column and
 * quoting the text around it (at most {@value #AROUND} characters either side, escaped by {@link Excerpt}).
 * A syntax error is described by Jackson's message (what was expected and what was found, escaped and cut
 * to {@value #MAX_PROBLEM_CHARS} characters), as {@code column 7: Unexpected character ('x' (code 120)): was
 * expecting comma to separate Object entries, in "{\"a\":1x}"}; a break of one of this class's own rules says
 * the rule and what was found, as {@code column 3: expected the end of the line, got '2', in "1 2"}. No message
 * of Java's own number parsing is passed on.
 *
 * <p>Limits, so that the input cannot make parsing slow or deep: objects and arrays may nest at most
 * {@value #MAX_DEPTH} deep (a conformance line nests three): deeper input is an error, never a
 * {@link StackOverflowError} of the recursive descent. A number may be at most {@value #MAX_NUMBER_CHARS}
 * characters long (a u64 has 20 digits): a longer one is an error found from its token's length, before any
 * {@link BigInteger} or {@link BigDecimal} is made (their parsing takes more than linear time in the digits), so
 * parsing takes time linear in the text. A number whose exponent {@link BigDecimal} cannot represent (beyond
 * about -2^31..2^31) is an error too.
 *
 * <p>The tokens come from Jackson's streaming parser ({@code jackson-core}), which checks the grammar, decodes
 * escapes and leaves a number's conversion to this class. Its own limits ({@link StreamReadConstraints}) are
 * set so that they never decide before the rules above: the number length is this class's rule (Jackson counts
 * digits only), its nesting limit is one level deeper than {@value #MAX_DEPTH} (so this class's check, made as
 * a level opens, decides), and strings and names are unlimited as they were, since the text is one line already
 * in memory. Jackson reads a sequence of root values; this class reads
 * one and makes anything after it an error.
 */
public final class JsonParser {

    /** The deepest nesting of objects and arrays accepted. */
    public static final int MAX_DEPTH = 64;

    /** The most characters of one number (sign, digits, point and exponent); a u64 has 20 digits. */
    public static final int MAX_NUMBER_CHARS = 40;

    /** The most characters an error message quotes on either side of the column it names. */
    private static final int AROUND = 20;

    /** The most characters of Jackson's description of a syntax error that a message keeps. */
    private static final int MAX_PROBLEM_CHARS = 160;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(MAX_DEPTH + 1)
                    .build())
            .errorReportConfiguration(ErrorReportConfiguration.builder().maxErrorTokenLength(AROUND).build())
            .build();

    private final String text;
    private final int maxNumberChars;
    private final com.fasterxml.jackson.core.JsonParser tokens;

    private JsonParser(String text, int maxNumberChars, com.fasterxml.jackson.core.JsonParser tokens) {
        this.text = text;
        this.maxNumberChars = maxNumberChars;
        this.tokens = tokens;
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
        try (com.fasterxml.jackson.core.JsonParser tokens = FACTORY.createParser(text)) {
            JsonParser p = new JsonParser(text, maxNumberChars, tokens);
            try {
                return p.document();
            } catch (JsonProcessingException e) {
                throw p.syntaxError(e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from a string", e);
        }
    }

    private Object document() throws IOException {
        JsonToken first = tokens.nextToken();
        if (first == null) {
            throw error(text.length(), "expected a value");
        }
        Object value = value(first, 0);
        int end = offset(tokens.currentLocation());
        while (end < text.length() && isSpace(text.charAt(end))) {
            end++;
        }
        if (end < text.length()) {
            throw error(end, "expected the end of the line");
        }
        return value;
    }

    private Object value(JsonToken token, int depth) throws IOException {
        return switch (token) {
            case START_OBJECT -> object(depth(depth));
            case START_ARRAY -> array(depth(depth));
            case VALUE_STRING -> tokens.getText();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            case VALUE_NULL -> null;
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> number(token == JsonToken.VALUE_NUMBER_INT);
            default -> throw new IllegalStateException("Jackson gave " + token + " where a value starts");
        };
    }

    /** @return the depth inside the object or array whose start is the current token */
    private int depth(int depth) {
        if (depth == MAX_DEPTH) {
            throw error(start(), "objects and arrays nested deeper than " + MAX_DEPTH + " levels");
        }
        return depth + 1;
    }

    private Map<String, Object> object(int depth) throws IOException {
        Map<String, Object> map = new LinkedHashMap<>();
        while (tokens.nextToken() == JsonToken.FIELD_NAME) {
            String key = tokens.currentName();
            if (map.containsKey(key)) {
                throw error(start(), "duplicate field " + Excerpt.of(key));
            }
            map.put(key, value(tokens.nextToken(), depth));
        }
        return map;
    }

    private List<Object> array(int depth) throws IOException {
        List<Object> list = new ArrayList<>();
        JsonToken token;
        while ((token = tokens.nextToken()) != JsonToken.END_ARRAY) {
            list.add(value(token, depth));
        }
        return list;
    }

    private Object number(boolean integer) throws IOException {
        int length = tokens.getTextLength();
        if (length > maxNumberChars) {
            throw error(start(), "a number must have at most " + maxNumberChars + " characters (a u64 has 20 digits), "
                    + "this one has " + length);
        }
        String s = tokens.getText();
        if (integer) {
            return new BigInteger(s);
        }
        try {
            return new BigDecimal(s);
        } catch (NumberFormatException e) {
            throw error(start(), "a number's exponent must be within -2^31..2^31 (a decimal's 32-bit scale)");
        }
    }

    /** @return the 0-based offset of the current token's first character */
    private int start() {
        return offset(tokens.currentTokenLocation());
    }

    private static int offset(JsonLocation at) {
        return (int) at.getCharOffset();
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    /** A syntax error Jackson found, at its location (or, where it gives none, at the parser's). */
    private IllegalArgumentException syntaxError(JsonProcessingException e) {
        JsonLocation at = e.getLocation() != null ? e.getLocation() : tokens.currentLocation();
        int pos = Math.min(offset(at), text.length());
        return new IllegalArgumentException("column " + (pos + 1) + ": "
                + Excerpt.clip(e.getOriginalMessage(), MAX_PROBLEM_CHARS) + ", in " + around(pos));
    }

    private IllegalArgumentException error(int pos, String problem) {
        String got = pos >= text.length() ? "the end of the line"
                : text.charAt(pos) >= 0x20 && text.charAt(pos) < 0x7f ? "'" + text.charAt(pos) + "'"
                : Excerpt.of(text.substring(pos, pos + 1));
        return new IllegalArgumentException("column " + (pos + 1) + ": " + problem + ", got " + got + ", in "
                + around(pos));
    }

    private String around(int pos) {
        return Excerpt.of(text.substring(Math.max(0, pos - AROUND), Math.min(text.length(), pos + AROUND)));
    }
}
