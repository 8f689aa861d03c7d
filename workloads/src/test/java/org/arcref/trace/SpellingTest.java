package org.arcref.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Spelling#closest}: the nearest name within one edit per three characters, at most three. */
class SpellingTest {

    private static final List<String> OPTIONS = List.of("--size-column", "--sizes", "--seed", "--help");

    @Test
    void theNearestNameWinsNotTheFirstSimilarOne() {
        assertEquals(Optional.of("--sizes"), Spelling.closest("--size", OPTIONS));
        assertEquals(Optional.of("--seed"), Spelling.closest("--sed", OPTIONS));
    }

    @Test
    void aShortStrangerMatchesNothing() {
        assertEquals(Optional.empty(), Spelling.closest("xyz", List.of("hz", "arc_c_max")));
        assertEquals(Optional.of("hz"), Spelling.closest("hx", List.of("hz", "arc_c_max")));
    }

    @Test
    void longNamesAllowAtMostThreeEdits() {
        List<String> known = List.of("zfs_arc_evict_batch_limit");
        assertEquals(Optional.of(known.get(0)), Spelling.closest("zfs_arc_evict_btch_lmt", known));
        assertEquals(Optional.empty(), Spelling.closest("zfs_arc_evct_btch_lmt", known));
    }

    @Test
    void tiesGoToTheFirstKnownName() {
        assertEquals(Optional.of("ab"), Spelling.closest("aa", List.of("ab", "ba")));
    }
}
