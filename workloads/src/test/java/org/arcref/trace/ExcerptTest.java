package org.arcref.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How error messages quote their input: cut at a length, and unprintable characters escaped. */
class ExcerptTest {

    @Test
    void aQuoteOfExactlyTheLimitIsNotMarkedAsCut() {
        String hundred = "x".repeat(Excerpt.MAX_CHARS);
        assertEquals('"' + hundred + '"', Excerpt.of(hundred));
        assertEquals('"' + hundred + "\"... (101 characters)", Excerpt.of(hundred + "y"));
    }

    @Test
    void clipCutsAfterMaxCharacters() {
        assertEquals("ab", Excerpt.clip("ab", 2));
        assertEquals("ab...", Excerpt.clip("abc", 2));
    }

    @Test
    void printableLookingButInvisibleCharactersAreEscaped() {
        assertEquals("\"a\\u200bb\\ue000\\ufffd\\\"\"", Excerpt.of("a\u200bb\ue000\ufffd\""));
        assertEquals("a\\tb\\u0000", Excerpt.clip("a\tb\u0000", 10));
    }

    @Test
    void aFieldKeepsItsJsonQuotesEscapesTerminalControlsAndSaysHowLongItWas() {
        assertEquals("\"x\\\"y\"", Excerpt.field("\"x\\\"y\"", 10));
        assertEquals("\"\\u001b[2J\\u009b\\u202e\"", Excerpt.field("\"\u001b[2J\u009b\u202e\"", 100));
        assertEquals("abc", Excerpt.field("abc", 3));
        assertEquals("abc... (4 characters)", Excerpt.field("abcd", 3));
    }

    @Test
    void printableRefusesControlAndFormatCharactersAndTheReplacementCharacter() {
        for (char c : new char[] {'\u0000', '\u001b', '\u007f', '\u0085', '\u009b', '\u200e', '\u202e', '\ufffd'}) {
            assertFalse(Excerpt.isPrintable(c), Integer.toHexString(c));
        }
        for (char c : new char[] {' ', 'a', '~', '\u00e9', '\u4e2d'}) {
            assertTrue(Excerpt.isPrintable(c), Integer.toHexString(c));
        }
    }
}
