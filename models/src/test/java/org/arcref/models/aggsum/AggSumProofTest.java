package org.arcref.models.aggsum;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.arcref.models.Why3Proof;
import org.arcref.models.Why3Proof.Result;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Proof P1, aggsum's error bound for any number of buckets and of threads ({@code src/test/why3/aggsum.mlw};
 * {@code docs/formal-models.md}, "P1 aggsum"), checked by Why3 and cvc5:
 * <ul>
 *   <li>every sub-goal of the faithful model is proved: the invariant holds initially and after each of the twelve
 *       steps, and implies A5 (what a lock-free reader sees bounds the value), A2 and A4;</li>
 *   <li>each broken variant leaves the preservation goal of the step it breaks unproved, and its witness, a run
 *       from the initial state to a state that no reader may see, is proved.</li>
 * </ul>
 */
class AggSumProofTest {
    private static final String MODEL = "aggsum.mlw";

    /** The goals that must be there and proved: the induction and what follows from it. */
    private static final Set<String> THEOREMS = Set.of("init_establishes", "fast_preserves",
            "take_core_add_preserves", "fold_preserves", "store_lower_add_preserves", "store_upper_add_preserves",
            "release_bucket_preserves", "release_core_preserves", "take_core_flush_preserves",
            "flush_bucket_preserves", "skip_bucket_preserves", "store_lower_flush_preserves",
            "store_upper_flush_preserves", "a5_reader_bounds", "a2_gap", "a4_value_exact", "a4_compare_encloses",
            "total_set", "total_ext", "total_zero", "share_bounds", "a6_borrow_not_negative");

    @Test
    @DisplayName("P1: every goal of the faithful model is proved")
    void faithfulModelProved() {
        List<Result> results = Why3Proof.of(MODEL).prove();
        List<Result> unproved = results.stream().filter(r -> !r.proved()).toList();
        assertEquals(List.of(), unproved, "unproved sub-goals");
        Set<String> goals = results.stream().map(Result::goal).collect(Collectors.toCollection(TreeSet::new));
        assertTrue(goals.containsAll(THEOREMS), "goals reported: " + goals);
    }

    @ParameterizedTest(name = "{0}: {1} unproved, {2} proved")
    @CsvSource({
        "store_after_unlock, fold_preserves, store_after_unlock_witness",
        "skip_borrow_check, fast_preserves, skip_borrow_check_witness",
        "stale_compare, take_core_flush_preserves, stale_compare_witness"})
    @DisplayName("P1: a broken variant fails the proof of the step it breaks, and its witness is proved")
    void brokenVariantRefuted(String flag, String brokenStep, String witness) {
        List<Result> results = Why3Proof.of(MODEL).flag(flag).prove();
        List<Result> unproved = results.stream().filter(r -> !r.proved()).toList();
        assertTrue(unproved.stream().anyMatch(r -> r.goal().equals(brokenStep)),
                "expected " + brokenStep + " among the unproved, which are " + unproved);
        List<Result> witnessParts = results.stream().filter(r -> r.goal().equals(witness)).toList();
        assertFalse(witnessParts.isEmpty(), "no result for " + witness);
        assertEquals(List.of(), witnessParts.stream().filter(r -> !r.proved()).toList(), "unproved parts of "
                + witness);
    }
}
