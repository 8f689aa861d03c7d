package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Explorer;
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

    /** The spec's source folder: {@code ZfsArc.java} and its arithmetic, {@code ArcArithmetic.java}. */
    private static final String SPEC_PACKAGE = "org/arcref/zfs/";
    private static final Map<String, String> CORPUS = new LinkedHashMap<>();
    private static final Map<String, List<String>> ZFS = new LinkedHashMap<>();

    @BeforeAll
    static void runTheCorpusThroughTheOracle() {
        for (String name : ConformanceTrace.builtinNames()) {
            if (!name.equals("quirk-adapt-multiply")) {
                CORPUS.put("builtin:" + name, BuiltinTraces.text(name));
            }
        }
        TransitionTraces.all().forEach((name, text) -> CORPUS.put("transition:" + name, text));
        for (long t = 0; t < 300; t++) {
            long seed = Explorer.trySeed(RandomOracleCampaignTest.SEED, t);
            CORPUS.put("random-" + t, ConformanceTrace.text(new ConformanceSettings(
                    Explorer.configOf(CheckKind.ORACLE, seed), Long.MAX_VALUE / 8),
                    Explorer.operationsOf(CheckKind.ORACLE, seed)));
        }
        try (OracleProcess oracle = OracleProcess.start(Oracles.released(ZfsRelease.V2_1_1))) {
            CORPUS.forEach((name, text) -> {
                OracleOutput out = oracle.run(name, text, false);
                assertEquals(OracleOutput.Ending.OK, out.ending(), name + ": " + out.message());
                ZFS.put(name, out.lines());
            });
        }
    }

    @Test
    void theUnmutatedSpecAgreesOnTheWholeCorpus() throws Exception {
        try (SpecMutant same = new SpecMutant(SPEC_PACKAGE + "ZfsArc.java", "bump(ArcStat.DELETED);", "bump(ArcStat.DELETED);")) {
            assertEquals(Optional.empty(), firstCatch(same), "the corpus");
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
        "statistic not counted: evicted_bytes | ZfsArc.java | stats[ArcStat.EVICTED_BYTES.ordinal()] += size; | ;",
        "statistic not counted: evict_skip | ZfsArc.java | bump(ArcStat.EVICT_SKIP); | ;",
        "boundary: arc_p grows up to arc_c, not arc_c - arc_p_min | ArcArithmetic.java"
                + " | return unsignedMin(c - pMin, p + | return unsignedMin(c, p +",
        "wrong shift: arc_shrink reduces arc_p by half the amount | ArcArithmetic.java"
                + " | long q = p - (p >>> config.tunables().shrinkShift());"
                + " | long q = p - (p >>> (config.tunables().shrinkShift() + 1));",
        "inverted: the reserve halves the overflow | ArcArithmetic.java | if (!useReserve) { | if (useReserve) {",
        "boundary: a waiter is released only past its count | ZfsArc.java"
                + " | Long.compareUnsigned(waiters.peekFirst().count, evictCount) <= 0"
                + " | Long.compareUnsigned(waiters.peekFirst().count, evictCount) < 0",
        "boundary: arc_c grows only above the growth window | ArcArithmetic.java"
                + " | return Long.compareUnsigned(sizeUpperBound, c - config.growthWindow()) >= 0;"
                + " | return Long.compareUnsigned(sizeUpperBound, c - config.growthWindow()) > 0;",
    })
    void theOracleCatchesTheMutation(String mutation, String file, String original, String replacement)
            throws Exception {
        try (SpecMutant mutant = new SpecMutant(SPEC_PACKAGE + file, original, replacement)) {
            Optional<String> caught = firstCatch(mutant);
            if (caught.isEmpty()) {
                fail(mutation + ": no trace of the corpus (" + CORPUS.size() + ") diverges from arc.c");
            }
            System.out.println("caught " + mutation + ": " + caught.get());
        }
    }

    /**
     * @return where the first trace of the corpus that the mutant runs to the end diverges from the oracle, or empty
     */
    private static Optional<String> firstCatch(SpecMutant mutant) {
        List<String> names = new ArrayList<>(CORPUS.keySet());
        for (String name : names) {
            List<String> spec;
            try {
                spec = mutant.conform(name, CORPUS.get(name));
            } catch (InvocationTargetException e) {
                continue; // the spec rejecting the trace is not the oracle catching the mutant
            }
            Optional<Divergence> d = OracleComparison.firstDivergence(spec, ZFS.get(name));
            if (d.isPresent()) {
                return Optional.of(name + " line " + d.get().line() + ", " + d.get().field() + ": spec "
                        + d.get().expected() + ", zfs " + d.get().actual());
            }
        }
        return Optional.empty();
    }
}
