package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The overflow and signedness traps of zfs-2.2.0's {@code arc_evict_adj} are pinned: each planted mutation of
 * {@code Arc22Arithmetic.evictAdj} that a port could make (a u64 division or comparison done signed, a u64 that does
 * not wrap) is caught by comparing the mutant's conformance output with zfs-2.2.0's arc.c on the engine's built-in
 * traces ({@code traces/INDEX-2.2.0}), run without fixes; a mutant that throws on a trace is caught too (a port
 * that crashes fails the suite). Those traps bite only once a fraction has left {@code [0, 2^32]} (inside it every
 * operand is under 2^63 and nothing wraps): {@code quirk-evict-adj-overflow} takes {@code arc_meta} above 2^32 and
 * then folds data and metadata ghost hits into it; the two that need a fraction below 0 (the division of
 * {@code up} done signed, the result stopped at 0) bite on {@code meta-balance-1}, whose balance of 1 wraps
 * {@code arc_meta} past 0.
 * Also planted: a port that drops the shifts' dynamic range ({@code s} always 32, from {@code 64 + highbit64} or a
 * {@code highbit64} of 0), which only a ghost total beyond 16 GiB with 4 GiB of one type's hits shows
 * ({@code evict-adj-highbit64}). The unmutated spec agrees on every trace, so a divergence is the mutation's.
 */
class PlantedEvictAdjMutationsTest {

    private static final String ARITHMETIC = "org/arcref/zfs/Arc22Arithmetic.java";
    private static MutantCorpus corpus;

    @BeforeAll
    static void runTheCorpusThroughTheOracle() {
        Map<String, String> traces = new LinkedHashMap<>();
        for (String name : ConformanceTrace.builtinNames(ZfsEngine.V2_2_0)) {
            traces.put("builtin:" + name, BuiltinTraces.text(name));
        }
        corpus = new MutantCorpus(ZfsRelease.V2_2_0, traces);
    }

    @Test
    void theUnmutatedSpecAgreesOnTheWholeCorpus() throws Exception {
        try (SpecMutant same = new SpecMutant(ARITHMETIC, "return frac + up - down;", "return frac + up - down;")) {
            assertEquals(Optional.empty(), corpus.firstCatch(same, true), "the corpus");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "signed division: down by ofrac / (2 * frac + 1)"
                + " | down = Long.divideUnsigned(down, Long.divideUnsigned(ofrac, 2 * frac + 1));"
                + " | down = down / (ofrac / (2 * frac + 1));",
        "signed comparison: frac >= 4 * ofrac | Long.compareUnsigned(frac, 4 * ofrac) >= 0 | frac >= 4 * ofrac",
        "signed comparison: ofrac >= 4 * frac | Long.compareUnsigned(ofrac, 4 * frac) >= 0 | ofrac >= 4 * frac",
        "no wrap: ofrac = 2^32 - frac stops at 0 | long ofrac = ONE - frac; | long ofrac = Math.max(ONE - frac, 0);",
        "no dynamic range: s = 32 whatever the total | int s = Math.min(64 - highbit64(total), 32);"
                + " | int s = Math.min(64 + highbit64(total), 32);",
        "no dynamic range: highbit64 is 0 | return 64 - Long.numberOfLeadingZeros(x); | return 0;",
        "signed division: up by frac / (2 * ofrac + 1)"
                + " | up = Long.divideUnsigned(up, Long.divideUnsigned(frac, 2 * ofrac + 1));"
                + " | up = up / (frac / (2 * ofrac + 1));",
        "no wrap: the fraction stopped at 0 | return frac + up - down;"
                + " | return Long.compareUnsigned(frac + up, down) < 0 ? 0 : frac + up - down;",
    })
    void zfs220sArcCCatchesTheMutation(String mutation, String original, String replacement) throws Exception {
        try (SpecMutant mutant = new SpecMutant(ARITHMETIC, original, replacement)) {
            Optional<String> caught = corpus.firstCatch(mutant, true);
            if (caught.isEmpty()) {
                fail(mutation + ": no trace of the corpus (" + corpus.size() + ") diverges from arc.c");
            }
            System.out.println("caught " + mutation + ": " + caught.get());
        }
    }
}
