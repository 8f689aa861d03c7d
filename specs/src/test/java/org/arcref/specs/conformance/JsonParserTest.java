package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.JsonParser;
import org.arcref.conformance.JsonWriter;
import org.junit.jupiter.api.Test;

/** The conformance format's JSON reader and writer: exact u64 values, order, escapes and errors with columns. */
class JsonParserTest {

    @Test
    void u64ValuesAboveLongMaxStayExact() {
        Object v = JsonParser.parse("{\"arc_p\":18446744073709551615,\"key\":-9223372036854775808}");
        assertEquals(Map.of("arc_p", new BigInteger("18446744073709551615"),
                "key", BigInteger.valueOf(Long.MIN_VALUE)), v);
    }

    @Test
    void writeThenParseKeepsFieldOrderAndValues() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", List.of(BigInteger.ONE, Boolean.TRUE, "a\"b\\c\n\u0001"));
        m.put("a", new LinkedHashMap<>(Map.of("x", new BigDecimal("1.5"))));
        String text = JsonWriter.write(m);
        assertEquals("{\"z\":[1,true,\"a\\\"b\\\\c\\n\\u0001\"],\"a\":{\"x\":1.5}}", text);
        Object back = JsonParser.parse(text);
        assertEquals(m, back);
        assertEquals(List.of("z", "a"), List.copyOf(((Map<?, ?>) back).keySet()));
    }

    @Test
    void nullAndUnicodeEscapesParse() {
        assertEquals(Arrays.asList(null, "\u00e9"), JsonParser.parse(" [null, \"\\u00e9\"] "));
        assertEquals("[null,\"\u00e9\"]", JsonWriter.write(Arrays.asList(null, "\u00e9")));
    }

    @Test
    void errorsNameTheColumnAndWhatWasExpectedAndQuoteTheTextAround() {
        assertEquals("column 7: expected ',' or '}', got 'x', in \"{\\\"a\\\":1x}\"", message("{\"a\":1x}"));
        assertEquals("column 9: duplicate field \"a\", got '\"', in \"{\\\"a\\\":1, \\\"a\\\":2}\"",
                message("{\"a\":1, \"a\":2}"));
        assertEquals("column 1: expected a value, got the end of the line, in \"\"", message(""));
        assertEquals("column 3: expected the end of the line, got '2', in \"1 2\"", message("1 2"));
        assertEquals("column 2: expected a digit, got 'x', in \"-x\"", message("-x"));
        assertEquals("column 2: expected a field name in double quotes, got 'a', in \"{a:1}\"", message("{a:1}"));
        assertEquals("column 26: expected ',' or ']', got 'x', in \"11111111111111111111x2222222222222222222\"",
                message("[" + "1".repeat(24) + "x" + "2".repeat(40) + "]"));
    }

    /** Was: 400,000 digits parsed by BigInteger (super-linear) and echoed whole by arc verify. */
    @Test
    void aNumberLongerThanTheLimitIsAnErrorBeforeItIsParsed() {
        String huge = "9".repeat(400_000);
        assertEquals("column 6: a number must have at most 40 characters (a u64 has 20 digits), this one has 400000, "
                + "got '9', in \"{\\\"a\\\":99999999999999999999\"", message("{\"a\":" + huge + "}"));
        assertEquals(new BigInteger("-" + "9".repeat(39)), JsonParser.parse("-" + "9".repeat(39)));
        assertTrue(message("-" + "9".repeat(40)).startsWith("column 1: a number must have at most 40 characters"));
        assertTrue(message("1." + "0".repeat(39)).contains("this one has 41"));
    }

    @Test
    void anExponentOutOfRangeIsAnErrorInWordsNotJavasMessage() {
        assertEquals("column 1: a number's exponent must be within -2^31..2^31 (a decimal's 32-bit scale), got '1', in "
                + "\"1e99999999999\"", message("1e99999999999"));
        assertTrue(message("1.5e-2147483648").startsWith("column 1: a number's exponent must be within"));
        assertEquals(new BigDecimal("1e999999999"), JsonParser.parse("1e999999999"));
    }

    @Test
    void aUnicodeEscapeNeedsFourAsciiHexDigits() {
        assertEquals("\u0123", JsonParser.parse("\"\\u0123\""));
        assertTrue(message("\"\\u+123\"").contains("expected 4 hex digits after \\u"), "Integer.parseInt took +");
        assertTrue(message("\"\\u-123\"").contains("expected 4 hex digits after \\u"));
        assertTrue(message("\"\\u\uff11234\"").contains("expected 4 hex digits after \\u"), "a fullwidth digit");
    }

    @Test
    void theWriterEscapesWhatATerminalWouldActOn() {
        String s = "a\u001b[31m\u007f\u009b\u202e\u00e9";
        assertEquals("\"a\\u001b[31m\\u007f\\u009b\\u202e\u00e9\"", JsonWriter.write(s));
        assertEquals(s, JsonParser.parse(JsonWriter.write(s)));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> JsonParser.parse(text)).getMessage();
    }
}
