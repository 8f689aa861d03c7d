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

    /** A syntax error is said in Jackson's words; this parser's own rules (duplicates, one value a line) in its own. */
    @Test
    void errorsNameTheColumnAndWhatWasExpectedAndQuoteTheTextAround() {
        assertEquals("column 7: Unexpected character ('x' (code 120)): was expecting comma to separate Object entries, "
                + "in \"{\\\"a\\\":1x}\"", message("{\"a\":1x}"));
        assertEquals("column 9: duplicate field \"a\", got '\"', in \"{\\\"a\\\":1, \\\"a\\\":2}\"",
                message("{\"a\":1, \"a\":2}"));
        assertEquals("column 1: expected a value, got the end of the line, in \"\"", message(""));
        assertEquals("column 3: expected the end of the line, got '2', in \"1 2\"", message("1 2"));
        assertEquals("column 2: Unexpected character ('x' (code 120)) in numeric value: expected digit (0-9) to follow "
                + "minus sign, for valid numeric value, in \"-x\"", message("-x"));
        assertEquals("column 2: Unexpected character ('a' (code 97)): was expecting double-quote to start field name, "
                + "in \"{a:1}\"", message("{a:1}"));
        assertEquals("column 26: Unexpected character ('x' (code 120)): was expecting comma to separate Array entries, "
                + "in \"11111111111111111111x2222222222222222222\"",
                message("[" + "1".repeat(24) + "x" + "2".repeat(40) + "]"));
    }

    /** Jackson reads a sequence of root values; a line holds one, and a stray closing bracket is not a value. */
    @Test
    void anythingAfterTheValueIsAnError() {
        assertEquals("column 8: expected the end of the line, got '}', in \"{\\\"a\\\":1}}\"", message("{\"a\":1}}"));
        assertEquals("column 5: expected the end of the line, got '\"', in \"\\\"a\\\" \\\"b\\\"\"",
                message("\"a\" \"b\""));
        assertEquals("column 6: expected the end of the line, got 'x', in \"[1] \\tx\"", message("[1] \tx"));
        assertEquals(List.of(), JsonParser.parse(" \t[]\r\n "));
    }

    /** Jackson's message quotes the character it did not expect; a message stays printable whatever it was. */
    @Test
    void aSyntaxErrorsMessageEscapesWhatATerminalWouldActOn() {
        String m = message("[1\u202e]");
        assertTrue(m.startsWith("column 3: Unexpected character ('\\u202e' (code 8238 / 0x202e))"), m);
        assertTrue(m.chars().allMatch(c -> c >= 0x20 && c < 0x7f), m);
        String unclosed = message("[\"" + "\u001b".repeat(1000));
        assertTrue(unclosed.length() < 400, unclosed);
        assertTrue(unclosed.chars().allMatch(c -> c >= 0x20 && c < 0x7f), unclosed);
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
        assertTrue(message("\"\\u+123\"").contains("expected a hex-digit for character escape sequence"),
                "Integer.parseInt took +");
        assertTrue(message("\"\\u-123\"").contains("expected a hex-digit for character escape sequence"));
        assertTrue(message("\"\\u\uff11234\"").contains("expected a hex-digit for character escape sequence"),
                "a fullwidth digit");
    }

    @Test
    void theWriterEscapesWhatATerminalWouldActOn() {
        String s = "a\u001b[31m\u007f\u009b\u202e\u00e9";
        assertEquals("\"a\\u001b[31m\\u007f\\u009b\\u202e\u00e9\"", JsonWriter.write(s));
        assertEquals(s, JsonParser.parse(JsonWriter.write(s)));
    }

    /** Jackson's own escapes differ: it writes \\b and \\f, upper-case hex digits, and C1 controls as they are. */
    @Test
    void theWriterEscapesBackspaceAndFormFeedAsUnicodeInLowerCase() {
        assertEquals("\"\\u0008\\u000c\\u001f\\u0085\"", JsonWriter.write("\b\f\u001f\u0085"));
        assertEquals("{\"k\\u001b\":\"\\\"/\"}", JsonWriter.write(Map.of("k\u001b", "\"/")));
    }

    /** A string longer than Jackson's output buffer goes through its long-string path, with the same escapes. */
    @Test
    void aLongStringIsEscapedTheSameWay() {
        String s = "x\u001b\u202e\u00e9\n".repeat(10_000);
        assertEquals("\"" + "x\\u001b\\u202e\u00e9\\n".repeat(10_000) + "\"", JsonWriter.write(s));
        assertEquals(s, JsonParser.parse(JsonWriter.write(s)));
    }

    /** Numbers are written exactly: a u64 above the long range, a decimal as BigDecimal.toString writes it. */
    @Test
    void numbersAreWrittenExactly() {
        assertEquals("[18446744073709551615,-9223372036854775808,7,1.50,1.234E+102,0.0]", JsonWriter.write(List.of(
                new BigInteger("18446744073709551615"), Long.MIN_VALUE, 7, new BigDecimal("1.50"),
                new BigDecimal("1234e99"), new BigDecimal("-0.0"))));
        assertThrows(IllegalArgumentException.class, () -> JsonWriter.write(1.5d));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> JsonParser.parse(text)).getMessage();
    }
}
