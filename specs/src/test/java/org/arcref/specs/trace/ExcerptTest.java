package org.arcref.specs.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.arcref.trace.Excerpt;
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
}
