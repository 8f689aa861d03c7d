package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    void errorsNameTheColumnAndWhatWasExpected() {
        assertEquals("column 7: expected ',' or '}', got 'x'", message("{\"a\":1x}"));
        assertEquals("column 9: duplicate field \"a\", got '\"'", message("{\"a\":1, \"a\":2}"));
        assertEquals("column 1: expected a value, got the end of the line", message(""));
        assertEquals("column 3: expected the end of the line, got '2'", message("1 2"));
        assertEquals("column 2: expected a digit, got 'x'", message("-x"));
        assertEquals("column 2: expected a field name in double quotes, got 'a'", message("{a:1}"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> JsonParser.parse(text)).getMessage();
    }
}
