package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.StringReader;
import org.arcref.conformance.Setting;
import org.arcref.trace.Decimal;
import org.arcref.trace.OpTraceReader;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Numbers in the inputs: ASCII digits only, so that {@code ١٢} or {@code +8192} is an error
 * naming the value rather than 12 or 8192; a u64 setting of 2^63 or more is named as the unsigned value it is, not
 * as a negative one; boolean tunables take ZFS's own {@code 1}/{@code 0} as well as {@code true}/{@code false}.
 */
class NumbersTest {

    @ParameterizedTest
    @ValueSource(strings = {"\u0661\u0662", "+12", "1_2", "12 ", "", "-", "\uff11\uff12"})
    void onlyAsciiDigitsAreNumbers(String text) {
        assertThrows(NumberFormatException.class, () -> Decimal.parseLong(text));
        assertThrows(NumberFormatException.class, () -> Decimal.parseUnsignedLong(text));
        assertThrows(NumberFormatException.class, () -> Decimal.parseInt(text));
    }

    @Test
    void asciiDecimalsParseAsJavaParsesThem() {
        assertEquals(-12, Decimal.parseLong("-12"));
        assertEquals(-1, Decimal.parseUnsignedLong("18446744073709551615"));
        assertEquals(Integer.MIN_VALUE, Decimal.parseInt("-2147483648"));
        assertThrows(NumberFormatException.class, () -> Decimal.parseUnsignedLong("-1"));
        assertThrows(NumberFormatException.class, () -> Decimal.parseLong("9223372036854775808"));
    }

    @Test
    void aSettingNamesTheValueAsWritten() {
        InvalidArgumentException digits = assertThrows(InvalidArgumentException.class,
                () -> Setting.ARC_C_MAX.parse("\u0661\u0662"));
        assertEquals("arc_c_max must be an unsigned 64-bit integer in ASCII digits, was \"\u0661\u0662\"",
                digits.getMessage());
        InvalidArgumentException big = assertThrows(InvalidArgumentException.class,
                () -> Setting.ARC_FREE_MEMORY.parse("18446744073709551615"));
        assertEquals("arc_free_memory must be below 2^63 (9223372036854775808) in the spec, was "
                + "\"18446744073709551615\"", big.getMessage());
        assertThrows(InvalidArgumentException.class, () -> Setting.RANDOM_SEED.parse("+1"));
    }

    @Test
    void booleanTunablesTakeZfsModuleParameterSpelling() {
        assertEquals(0, Setting.ZFS_ABD_SCATTER_ENABLED.parse("0"));
        assertEquals(1, Setting.ZFS_ABD_SCATTER_ENABLED.parse("1"));
        assertEquals(1, Setting.ZFS_ARC_P_DAMPENER_DISABLE.parse("true"));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> Setting.ZFS_ABD_SCATTER_ENABLED.parse("2"));
        assertEquals("zfs_abd_scatter_enabled must be true, false, 1 or 0, was \"2\"", e.getMessage());
    }

    @Test
    void anOpTraceTakesOnlyAsciiDigits() {
        TraceFormatException key = assertThrows(TraceFormatException.class,
                () -> OpTraceReader.read(new BufferedReader(new StringReader("read \u0661\u0662 512\n")), "t.ops"));
        assertEquals("t.ops:1: key must be a 64-bit integer, got \"\u0661\u0662\"", key.getMessage());
        assertThrows(TraceFormatException.class,
                () -> OpTraceReader.read(new BufferedReader(new StringReader("read 1 +512\n")), "t.ops"));
    }
}
