package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every quirk switch proven by the code that carries its fix. For each {@link QuirkFix}, on the built-in trace that
 * shows it (the spec's runs with and without the fix differ there):
 * <ul>
 *   <li>an upstream fix that a release shipped: that release's own, unpatched arc.c (the first release of
 *       {@link ZfsRelease} whose fixes contain it) agrees with the spec following the release, and diverges from the
 *       spec following the release less that one fix at the operation, field and value where the spec's two runs
 *       diverge;</li>
 *   <li>any other fix (upstream's #14094, which no release carries, and this project's own): zfs-2.1.1's arc.c with
 *       the fix's patch ({@code oracle/patches/zfs-2.1.1/FIX.patch}) agrees with the spec applying that fix, and
 *       diverges from the plain 2.1.1 spec where and as the fix shows.</li>
 * </ul>
 * That zfs-2.1.1's released arc.c agrees with the plain spec on the same traces (the quirk reproduced) is
 * {@link ConformanceTracesOracleTest}'s.
 */
class QuirkFixProvenanceOracleTest {

    /** The built-in trace that shows each fix. */
    private static final Map<QuirkFix, String> SHOWN_BY = Map.of(
            QuirkFix.WRITE_SHARES_LINEAR_12425, "quirk-write-shares-linear",
            QuirkFix.REAP_ABOVE_C_MIN_13794, "shrink-and-memory",
            QuirkFix.ARC_P_GROWTH_CAP_14137, "quirk-arc-p-growth",
            QuirkFix.ADAPT_MRU_64BIT_MULTIPLY_14094, "quirk-adapt-mru-multiply",
            QuirkFix.ADAPT_MFU_64BIT_MULTIPLY_OURS, "quirk-adapt-multiply",
            QuirkFix.SHRINK_CLAMPS_ARC_P_OURS, "quirk-shrink-arc-p",
            QuirkFix.EVICT_ADJ_OVERFLOW_17255, "quirk-evict-adj-overflow",
            QuirkFix.MFU_META_EVICTION_16546, "quirk-mfu-meta-eviction",
            QuirkFix.SHRINK_IMPROVEMENTS_16197, "quirk-shrink-improvements");

    @ParameterizedTest
    @EnumSource(QuirkFix.class)
    void theFixIsProvenByTheCodeThatCarriesIt(QuirkFix fix) throws IOException {
        String name = SHOWN_BY.get(fix);
        assertNotNull(name, fix + " has no built-in trace that shows it");
        String text = BuiltinTraces.text(name);
        ConformanceTrace trace = ConformanceTrace.read(new BufferedReader(new StringReader(text)), name);
        Optional<ZfsRelease> release = Arrays.stream(ZfsRelease.values())
                .filter(r -> r.fixes().contains(fix)).findFirst();
        if (fix.firstRelease().isPresent()) {
            assertTrue(release.isPresent(), fix + " shipped in zfs-" + fix.firstRelease().get()
                    + ", but no release the spec follows carries it");
        }
        Set<QuirkFix> with = release.map(r -> EnumSet.copyOf(r.fixes())).orElse(EnumSet.of(fix));
        Set<QuirkFix> without = EnumSet.copyOf(with);
        without.remove(fix);
        List<String> quirk = spec(trace, fix.engine(), without);
        Divergence shows = ConformanceComparer.firstOperationDivergence(file(quirk),
                file(spec(trace, fix.engine(), with))).orElseThrow(() -> new AssertionError(name + " does not show "
                + fix));
        Path binary = release.map(Oracles::released).orElseGet(() -> Oracles.patched(fix));
        try (Oracles.Session oracle = Oracles.session(binary, fix.engine(), with)) {
            OracleOutput zfs = oracle.process().run(name, text, false);
            assertEquals(OracleOutput.Ending.OK, zfs.ending(), zfs.message());
            Divergence d = ConformanceComparer.firstOperationDivergence(file(quirk), file(zfs.lines())).orElseThrow(
                    () -> new AssertionError(binary.getFileName() + " shows no effect of " + fix + " on " + name));
            assertEquals(shows.line(), d.line(), "the operation where the fix first shows: " + d);
            assertEquals(shows.field(), d.field(), d.toString());
            assertEquals(shows.actual(), d.actual(), "arc.c's value is the fixed spec's: " + d);
            OracleComparison.Result agreement = oracle.comparison().compare(name, text, false);
            assertTrue(agreement.agrees(), agreement.describe());
        }
    }

    /**
     * zfs-2.2.0's two fixes whose commits' arc.c hunks apply to 2.2.0 alone ({@code oracle/patches/zfs-2.2.0}):
     * 2.2.0's arc.c with the hunk agrees with the spec applying that fix only, and differs from 2.2.0's where the
     * spec without it does. (#16197's hunk needs its arc_impl.h changes too; 2.2.11's arc.c proves it above.)
     */
    @ParameterizedTest
    @EnumSource(value = QuirkFix.class, names = {"EVICT_ADJ_OVERFLOW_17255", "MFU_META_EVICTION_16546"})
    void theFixAloneIsItsCommitsHunk(QuirkFix fix) throws IOException {
        String name = SHOWN_BY.get(fix);
        String text = BuiltinTraces.text(name);
        ConformanceTrace trace = ConformanceTrace.read(new BufferedReader(new StringReader(text)), name);
        Divergence shows = ConformanceComparer.firstOperationDivergence(file(spec(trace, fix.engine(), Set.of())),
                file(spec(trace, fix.engine(), Set.of(fix)))).orElseThrow();
        try (Oracles.Session oracle = Oracles.session(Oracles.patched(fix), fix.engine(), Set.of(fix))) {
            OracleComparison.Result agreement = oracle.comparison().compare(name, text, true);
            assertTrue(agreement.agrees(), agreement.describe());
        }
        try (Oracles.Session oracle = Oracles.session(ZfsRelease.V2_2_0)) {
            OracleOutput zfs = oracle.process().run(name, text, false);
            Divergence d = ConformanceComparer.firstOperationDivergence(file(zfs.lines()),
                    file(spec(trace, fix.engine(), Set.of(fix)))).orElseThrow();
            assertEquals(shows.line(), d.line(), "2.2.0's arc.c shows the quirk where the spec does: " + d);
            assertEquals(shows.field(), d.field(), d.toString());
        }
    }

    private static List<String> spec(ConformanceTrace trace, ZfsEngine engine, Set<QuirkFix> fixes) {
        ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults(engine).withFixes(fixes));
        return ConformanceRun.of(trace, settings, false).lines();
    }

    private static ConformanceFile file(List<String> lines) {
        return ConformanceFile.parse(lines, "output");
    }
}
