package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Explorer;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The oracle check can fail: each of twelve one-line mutations of the spec (signedness, boundaries, a skipped
 * {@code arc_adapt}, a wrong state moved to, statistics not counted, a wrong shift) is caught by comparing the
 * mutant's conformance output with the real arc.c's, on the built-in traces, the hand-written transition traces and
 * the first random traces of the oracle campaign (the corpus, whose oracle output is computed once). The unmutated spec agrees on the whole
 * corpus, so a divergence is the mutation's.
 */
class PlantedSpecMutationsTest {

    /**
     * The spec's source folder: {@code ZfsArc.java}, what it shares with zfs-2.2.0's engine ({@code SequentialArc.java})
     * and its arithmetic ({@code ArcArithmetic.java}).
     */
    private static final String SPEC_PACKAGE = "org/arcref/zfs/";
    private static MutantCorpus corpus;

    @BeforeAll
    static void runTheCorpusThroughTheOracle() {
        Map<String, String> traces = new LinkedHashMap<>();
        for (String name : ConformanceTrace.builtinNames()) {
            if (!name.equals("quirk-adapt-multiply")) {
                traces.put("builtin:" + name, BuiltinTraces.text(name));
            }
        }
        TransitionTraces.all().forEach((name, text) -> traces.put("transition:" + name, text));
        for (long t = 0; t < 300; t++) {
            long seed = Explorer.trySeed(RandomOracleCampaignTest.SEED, t);
            traces.put("random-" + t, Explorer.tryOf(CheckKind.ORACLE, ZfsEngine.V2_1_1, seed).text());
        }
        corpus = new MutantCorpus(ZfsRelease.V2_1_1, traces);
    }

    @Test
    void theUnmutatedSpecAgreesOnTheWholeCorpus() throws Exception {
        try (SpecMutant same = new SpecMutant(SPEC_PACKAGE + "SequentialArc.java", "bump(ArcStat.DELETED);",
                "bump(ArcStat.DELETED);")) {
            assertEquals(Optional.empty(), corpus.firstCatch(same, false), "the corpus");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "signedness: available memory compared unsigned | ArcArithmetic.java"
                + " | return availableMemory >= 0 && !noGrow"
                + " | return Long.compareUnsigned(availableMemory, 0) >= 0 && !noGrow",
        "boundary: ARC_MINTIME promotion at > replaced by >= | ArcArithmetic.java"
                + " | now > lastAccess + config.minTimeTicks() | now >= lastAccess + config.minTimeTicks()",
        "skipped arc_adapt on a ghost hit | ZfsArc.java | adapt(h.size, h.state); | ;",
        "wrong state: an MRU-ghost hit moves to MRU | ArcArithmetic.java"
                + " | MRU_GHOST_TO_MFU(ArcState.MFU, | MRU_GHOST_TO_MFU(ArcState.MRU,",
        "statistic not counted: mfu_hits | ArcArithmetic.java"
                + " | MFU_HIT(ArcState.MFU, true, false, ArcStat.MFU_HITS) | MFU_HIT(ArcState.MFU, true, false, null)",
        "statistic not counted: evicted_bytes | SequentialArc.java | stats[ArcStat.EVICTED_BYTES.ordinal()] += size; | ;",
        "statistic not counted: evict_skip | SequentialArc.java | bump(ArcStat.EVICT_SKIP); | ;",
        "boundary: arc_p grows up to arc_c, not arc_c - arc_p_min | ArcArithmetic.java"
                + " | return unsignedMin(c - pMin, p + | return unsignedMin(c, p +",
        "wrong shift: arc_shrink reduces arc_p by half the amount | ArcArithmetic.java"
                + " | long q = p - (p >>> config.tunables().shrinkShift());"
                + " | long q = p - (p >>> (config.tunables().shrinkShift() + 1));",
        "inverted: the reserve halves the overflow | ArcArithmetic.java | if (!useReserve) { | if (useReserve) {",
        "boundary: a waiter is released only past its count | SequentialArc.java"
                + " | Long.compareUnsigned(waiters.peekFirst().count, evictCount) <= 0"
                + " | Long.compareUnsigned(waiters.peekFirst().count, evictCount) < 0",
        "boundary: arc_c grows only above the growth window | ArcArithmetic.java"
                + " | return Long.compareUnsigned(sizeUpperBound, c - config.growthWindow()) >= 0;"
                + " | return Long.compareUnsigned(sizeUpperBound, c - config.growthWindow()) > 0;",
    })
    void theOracleCatchesTheMutation(String mutation, String file, String original, String replacement)
            throws Exception {
        try (SpecMutant mutant = new SpecMutant(SPEC_PACKAGE + file, original, replacement)) {
            Optional<String> caught = corpus.firstCatch(mutant, false);
            if (caught.isEmpty()) {
                fail(mutation + ": no trace of the corpus (" + corpus.size() + ") diverges from arc.c");
            }
            System.out.println("caught " + mutation + ": " + caught.get());
        }
    }
}
