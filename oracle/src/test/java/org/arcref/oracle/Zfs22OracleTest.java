package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.explore.Random22Scenario;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * zfs-2.2.0's engine against the real arc.c of zfs-2.2.0, and with every 2.2.x switch on against the unpatched
 * arc.c of zfs-2.2.11, every field compared after every operation, no divergence:
 * <ul>
 *   <li>every built-in trace of the engine ({@code traces/INDEX-2.2.0}), every header listed (but in those the index
 *       marks {@code without-headers}, {@link ConformanceTrace#suiteListsHeaders}), against each release whose
 *       arc.c does not stop on an assertion it reaches ({@link ConformanceTrace#oracleJudges}: not
 *       {@code meta-balance-1} against 2.2.11);</li>
 *   <li>every built-in trace of zfs-2.1.1's engine that names no setting 2.2.0 lacks, run by 2.2.0's engine, every
 *       header listed;</li>
 *   <li>2,000 random traces of {@link Random22Scenario}, {@value #OPERATIONS} operations each, per release (20,000
 *       with {@code -Doracle.large=true}), every field but the header listing (as the 2.1 campaigns compare), printing the compared operations per
 *       second; at least a quarter of them must show, in arc.c's output, an uncached hit and an eviction from the
 *       uncached state.</li>
 * </ul>
 */
class Zfs22OracleTest {

    static Stream<Arguments> builtins() {
        List<String> traces = new ArrayList<>(ConformanceTrace.builtinNames(ZfsEngine.V2_2_0));
        for (String name : ConformanceTrace.builtinNames()) {
            if (!BuiltinTraces.text(name).contains("arc_p_min_shift=")) {
                traces.add(name);
            }
        }
        return Stream.of(ZfsRelease.V2_2_0, ZfsRelease.V2_2_11).flatMap(r -> traces.stream()
                .filter(name -> ConformanceTrace.oracleJudges(name, r)).map(name -> Arguments.of(r, name)));
    }

    @ParameterizedTest(name = "zfs-{0}: builtin:{1}")
    @MethodSource("builtins")
    void aBuiltinTraceAgreesWithArcC(ZfsRelease release, String name) {
        try (Oracles.Session oracle = Oracles.session(release)) {
            OracleComparison.Result r = oracle.comparison().compare("builtin:" + name, BuiltinTraces.text(name),
                    ConformanceTrace.suiteListsHeaders(name));
            assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), r.oracle().message());
            assertTrue(r.agrees(), r.describe());
        }
    }

    static final long SEED = 20_261_205L;
    static final int OPERATIONS = 300;

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void randomTracesAgreeWithArcC(ZfsRelease release) {
        long tries = Boolean.getBoolean("oracle.large") ? 20_000 : 2_000;
        long ops = 0;
        long fixesShow = 0;
        long uncachedShows = 0;
        long comparing = 0;
        try (Oracles.Session oracle = Oracles.session(release)) {
            for (long t = 0; t < tries; t++) {
                String text = Random22Scenario.generate(SEED + t, UnaryOperator.identity(), OPERATIONS, null).text();
                String name = "random-" + (SEED + t);
                long start = System.nanoTime();
                OracleComparison.Result r = oracle.comparison().compare(name, text, false);
                comparing += System.nanoTime() - start;
                assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), name + ": " + r.oracle().message());
                assertTrue(r.agrees(), () -> name + ": " + r.describe() + "\ntrace:\n" + text);
                ops += r.trace().steps().size();
                if (!release.fixes().isEmpty() && fixesShow(r.trace(), release)) {
                    fixesShow++;
                }
                if (uncachedShows(r.oracle().lines())) {
                    uncachedShows++;
                }
            }
        }
        double seconds = comparing / 1e9;
        System.out.printf(Locale.ROOT, "oracle campaign, zfs-%s engine 2.2.0: seed %d, %d traces, %d operations "
                + "compared in %.1f s: %.0f operations/s%n", release, SEED, tries, ops, seconds, ops / seconds);
        System.out.printf(Locale.ROOT, "  arc.c's output has an uncached hit and an eviction from the uncached state "
                + "in %d of %d traces%n", uncachedShows, tries);
        assertTrue(uncachedShows * 4 >= tries, "the campaign tests uncached reads: arc.c hits and evicts uncached "
                + "headers in " + uncachedShows + " of " + tries + " traces, want a quarter at least");
        if (!release.fixes().isEmpty()) {
            System.out.printf(Locale.ROOT, "  the release's fixes change the spec's operation lines in %d of %d "
                    + "traces%n", fixesShow, tries);
            assertTrue(fixesShow * 4 >= tries, "the campaign tests the fixes: they show in " + fixesShow + " of "
                    + tries + " traces, want a quarter at least");
        }
    }

    /**
     * @return whether arc.c's operation lines show both ends of an uncached header's life the random traces aim at:
     *     a read that hits the uncached state ({@code HIT_UNCACHED}) and an eviction from it (the evict zthr's flush)
     */
    private static boolean uncachedShows(List<String> zfsLines) {
        boolean hit = false;
        boolean flushed = false;
        for (String line : zfsLines) {
            hit |= line.contains("\"outcome\":\"HIT_UNCACHED\"");
            flushed |= line.contains("\"from\":\"uncached\"");
        }
        return hit && flushed;
    }

    /** @return whether the spec's operation lines differ without the release's fixes */
    private static boolean fixesShow(ConformanceTrace trace, ZfsRelease release) {
        ConformanceSettings with = trace.applySettings(ConformanceSettings.defaults(release.engine())
                .withFixes(release.fixes()));
        List<String> a = ConformanceRun.of(trace, with, false).lines();
        List<String> b = ConformanceRun.of(trace, with.withFixes(Set.of()), false).lines();
        return !a.subList(1, a.size()).equals(b.subList(1, b.size()));
    }
}
