package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.arcref.explore.RandomScenario;
import org.arcref.specs.conformance.SignednessMutants.Call;
import org.arcref.specs.conformance.SignednessMutants.Site;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite against the port bugs of signedness and width ({@link SignednessMutants}): every unsigned
 * operation of the spec's classes, replaced by its signed twin.
 *
 * <ul>
 *   <li>Where the suite ({@link SuiteRuns}) reaches a value that the signed twin treats otherwise, the mutant must
 *       change some run's output: a port with that bug fails a built-in.</li>
 *   <li>Where it does not, the signed twin computes the same on every run, so no built-in can catch it; those sites
 *       are listed in {@link #UNREACHED}. {@value #TRIES} random tries of each engine (the generator of
 *       {@code arc gen} and {@code arc explore --checks oracle}) must not reach any of them either: a site they reach
 *       is a gap in the suite, reported with the try that reaches it.</li>
 * </ul>
 *
 * <p>The test fails naming a site that a changed spec adds, a listed site that the suite now reaches, and a site a
 * random try reaches that the suite does not.
 */
class SignednessMutantsTest {

    /** Random tries per engine. */
    private static final int TRIES = 300;

    /** The classes mutated, and the engines whose suites run each. */
    private static final Map<String, List<ZfsEngine>> CLASSES = new LinkedHashMap<>();

    static {
        List<ZfsEngine> both = List.of(ZfsEngine.V2_1_1, ZfsEngine.V2_2_0);
        CLASSES.put("org.arcref.zfs.ZfsArc", List.of(ZfsEngine.V2_1_1));
        CLASSES.put("org.arcref.zfs.Zfs22Arc", List.of(ZfsEngine.V2_2_0));
        CLASSES.put("org.arcref.zfs.Arc22Arithmetic", List.of(ZfsEngine.V2_2_0));
        CLASSES.put("org.arcref.zfs.SequentialArc", both);
        CLASSES.put("org.arcref.zfs.ArcArithmetic", both);
        CLASSES.put("org.arcref.zfs.BufHash", both);
        CLASSES.put("org.arcref.random.SplitMix64", both);
    }

    /**
     * Sites where no run of the suite reaches a value the signed twin treats otherwise (by {@link Site#label()}), in
     * two groups.
     */
    private static final List<String> UNREACHED = new ArrayList<>();

    static {
        // Bounded: every operand is a size, a target, a count or a setting, each at least 0 and below 2^63, where signed
        // and unsigned agree (ArcConfig bounds arc_c_max and arc_sys_free by Long.MAX_VALUE / 4, and a block by
        // spa_maxblocksize; free memory and a shrink are non-negative longs), a shift of one, or a difference taken
        // after the comparison that keeps it non-negative
        // (reapNoGrow's free memory after its negative branch, reapToFree's can_free after its test); zfs-2.1.1's
        // arc_p stays below arc_c because the one unsigned MIN that takes a wrapped arc_p back is caught
        // (adaptMruTarget MIN#0). arc_evict_adj's quotients and shifts of hit counts: up and down are below the ghost
        // total after scaling, so up << s and down << s stay below 2^60, and down * 100 below 2^36.
        UNREACHED.addAll(List.of(
                "ZfsArc.<init> LONG_SHIFT#0", "ZfsArc.adapt MIN#0", "ZfsArc.getDataImpl LONG_COMPARE#0",
                "ZfsArc.reduceTargetSizeImpl LONG_COMPARE#0", "ZfsArc.reduceTargetSizeImpl MIN#0",
                "SequentialArc.evictCb LONG_COMPARE#0", "SequentialArc.evictStateImpl LONG_COMPARE#1",
                "SequentialArc.evictStateImpl LONG_COMPARE#2",
                "ArcArithmetic.adaptGrowthClamped LONG_COMPARE#0", "ArcArithmetic.adaptMayGrow LONG_COMPARE#0",
                "ArcArithmetic.adaptMruTarget LONG_SHIFT#0", "ArcArithmetic.adaptMruTarget MAX#0",
                "ArcArithmetic.adaptWithinGrowthWindow LONG_COMPARE#0",
                "ArcArithmetic.anonDataGrowsMruTarget LONG_COMPARE#0", "ArcArithmetic.flooredMruTarget LONG_COMPARE#0",
                "ArcArithmetic.flooredMruTarget LONG_SHIFT#0", "ArcArithmetic.grownMruTarget MIN#0",
                "ArcArithmetic.overflowLevel LONG_SHIFT#0", "ArcArithmetic.overflowLevel MAX#0",
                "ArcArithmetic.pGrowthAllowed LONG_COMPARE#0", "ArcArithmetic.pGrowthAllowed LONG_SHIFT#0",
                "ArcArithmetic.reapNoGrow LONG_COMPARE#0", "ArcArithmetic.reapNoGrow LONG_SHIFT#0",
                "ArcArithmetic.reapToFree LONG_SHIFT#0", "ArcArithmetic.reapToFree LONG_SHIFT#1",
                "ArcArithmetic.reduceLowersTarget LONG_COMPARE#0", "ArcArithmetic.reduceLowersTarget LONG_COMPARE#1",
                "ArcArithmetic.reducedMruTarget LONG_COMPARE#0", "ArcArithmetic.reducedMruTarget LONG_SHIFT#0",
                "ArcArithmetic.reducedMruTarget LONG_SHIFT#1", "ArcArithmetic.waiterCount MAX#0",
                "Arc22Arithmetic.adaptGrownTarget LONG_COMPARE#0", "Arc22Arithmetic.adaptGrownTarget LONG_COMPARE#1",
                "Arc22Arithmetic.adaptGrownTarget LONG_COMPARE#2", "Arc22Arithmetic.adaptGrownTarget MAX#0",
                "Arc22Arithmetic.overflowLevel LONG_SHIFT#0", "Arc22Arithmetic.reduceWakesEvictor LONG_COMPARE#0",
                "Arc22Arithmetic.reduceWakesEvictor LONG_COMPARE#1", "Arc22Arithmetic.reducedTarget LONG_COMPARE#0",
                "Arc22Arithmetic.reducedTarget LONG_COMPARE#1", "Arc22Arithmetic.reducedTarget MAX#0",
                "Arc22Arithmetic.reducedTarget MIN#0", "Arc22Arithmetic.reducedTarget MIN#1",
                "Arc22Arithmetic.evictAdj LONG_COMPARE#0", "Arc22Arithmetic.evictAdj LONG_COMPARE#1",
                "Arc22Arithmetic.evictAdj LONG_DIVIDE#0", "Arc22Arithmetic.evictAdj LONG_DIVIDE#1",
                "Arc22Arithmetic.evictAdj LONG_DIVIDE#2", "Arc22Arithmetic.evictAdj LONG_DIVIDE#3",
                "Arc22Arithmetic.evictAdj LONG_DIVIDE#4", "Arc22Arithmetic.evictAdj LONG_DIVIDE#6",
                "Arc22Arithmetic.evictAdj LONG_DIVIDE#7", "Arc22Arithmetic.evictAdj LONG_DIVIDE#9",
                "Arc22Arithmetic.evictAdj LONG_DIVIDE#10", "Arc22Arithmetic.evictAdj LONG_DIVIDE#11",
                "Arc22Arithmetic.evictAdj LONG_SHIFT#0", "Arc22Arithmetic.evictAdj LONG_SHIFT#1"));
        // Not established: arc_evict's arc_pd >> 16 differs only for an arc_pd at or above 2^63, that is wrapped past
        // 0. arc_pd moves with a balance of 100; neither the suite nor the random tries take it below 0, and whether
        // 2.2.0's arc_evict_adj can is not shown either way (arc_meta does, with a balance below 100: meta-balance-1).
        UNREACHED.add("Zfs22Arc.evict LONG_SHIFT#1");
    }

    /** Sites the suite reaches whose signed twin still changes no output, each with the reason. */
    private static final Map<String, String> EQUIVALENT = Map.of("SplitMix64.mix LONG_SHIFT#2",
            "the last step of mix, z ^ (z >> 31), differs from z ^ (z >>> 31) only above bit 32, and the spec keeps the "
            + "low 32 bits of each draw (random_in_range)");

    private static List<Site> sites;
    private static Map<Site, Call> reachedBySuite;

    @BeforeAll
    static void probeTheSuite() {
        sites = SignednessMutants.sites(List.copyOf(CLASSES.keySet())).stream()
                .filter(SignednessMutantsTest::isTheSpecs).toList();
        List<Call> calls = new ArrayList<>();
        for (ZfsEngine e : ZfsEngine.values()) {
            SuiteRuns.runs(e.name()).forEach(run -> calls.add(new Call("output", e.name(), run)));
        }
        reachedBySuite = SignednessMutants.sensitive(sites, calls);
    }

    /**
     * {@code ArcArithmetic.unsignedMin} and {@code unsignedMax} are mutated at each call ({@code MIN}, {@code MAX}),
     * not inside; {@code SplitMix64.nextIndex} and {@code nextDouble} are the synthetic workload's draws, which the
     * spec does not make.
     */
    private static boolean isTheSpecs(Site site) {
        String m = site.method();
        return !(m.startsWith("unsignedMin(") || m.startsWith("unsignedMax(") || m.startsWith("nextIndex(")
                || m.startsWith("nextDouble("));
    }

    @Test
    void everySignedTwinTheSuiteReachesChangesABuiltinsOutput() {
        Map<ZfsEngine, List<String>> runs = new LinkedHashMap<>();
        Map<ZfsEngine, List<List<String>>> expected = new LinkedHashMap<>();
        for (ZfsEngine e : ZfsEngine.values()) {
            runs.put(e, SuiteRuns.runs(e.name()));
            expected.put(e, runs.get(e).stream().map(run -> SuiteRuns.output(e.name(), run)).toList());
        }
        List<String> report = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        int caughtSites = 0;
        for (Site site : sites) {
            if (!reachedBySuite.containsKey(site)) {
                report.add(site.where() + ": not reached");
                continue;
            }
            String caught = null;
            for (ZfsEngine e : CLASSES.get(site.className())) {
                caught = SignednessMutants.firstCatch(site, e.name(), runs.get(e), expected.get(e));
                if (caught != null) {
                    report.add(site.where() + ": caught by " + e + " " + caught);
                    caughtSites++;
                    break;
                }
            }
            if (caught == null && !EQUIVALENT.containsKey(site.label())) {
                missed.add(site.where() + " (reached by " + reachedBySuite.get(site).argument() + ")");
            }
            if (caught == null) {
                report.add(site.where() + ": reached, equivalent: " + EQUIVALENT.get(site.label()));
            }
        }
        System.out.println("[signedness] " + sites.size() + " sites, " + reachedBySuite.size() + " reached by the "
                + "suite, " + caughtSites + " caught\n  " + String.join("\n  ", report));
        assertTrue(sites.size() > 50, "the scan found the unsigned operations: " + sites.size());
        assertEquals(List.of(), missed, "signed twins the suite reaches without any output changing");
    }

    @Test
    void theSitesTheSuiteDoesNotReachAreListed() {
        TreeSet<String> unreached = new TreeSet<>();
        sites.stream().filter(s -> !reachedBySuite.containsKey(s)).forEach(s -> unreached.add(s.label()));
        assertEquals(new TreeSet<>(UNREACHED), unreached, "sites no run of the suite reaches");
    }

    @Test
    void randomTriesReachNoSiteTheSuiteDoesNot() {
        List<Call> calls = new ArrayList<>();
        for (ZfsEngine e : ZfsEngine.values()) {
            for (long seed = 0; seed < TRIES; seed++) {
                calls.add(new Call("outputOfText", e.name(), RandomScenario.generate(e, seed, UnaryOperator.identity(),
                        null, null).text()));
            }
        }
        Map<String, String> gaps = new TreeMap<>();
        SignednessMutants.sensitive(sites, calls).forEach((site, call) -> {
            if (!reachedBySuite.containsKey(site)) {
                gaps.put(site.label(), call.engine() + " try:\n" + call.argument());
            }
        });
        assertEquals(Map.of(), gaps, "sites random tries reach with values the signed twin treats otherwise, which no "
                + "built-in reaches");
    }
}
