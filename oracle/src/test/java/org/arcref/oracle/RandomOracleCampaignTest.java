package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Checker;
import org.arcref.explore.ExploreResult;
import org.arcref.explore.Explorer;
import org.arcref.explore.Failure;
import org.arcref.explore.Shard;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The random differential {@code arc explore --checks oracle --zfs RELEASE} runs, against the real arc.c, on a fixed
 * seed: for every zfs-2.1 release the spec follows 2,000 tries (20,000 with {@code -Doracle.large=true}); for
 * zfs-2.2.0 and zfs-2.2.11, whose engine's random traces {@code Zfs22OracleTest} runs 2,000 of at 300 operations
 * each, {@value #TRIES_22} tries as explore draws them (its tries and shrinking, through {@link Checker}). Every field
 * compared after every operation, no divergence; prints the compared operations per second. And for each engine, a
 * planted change of arc.c is found and shrunk.
 */
class RandomOracleCampaignTest {

    static final long SEED = 20_261_202L;

    @ParameterizedTest(name = "zfs-{0}")
    @MethodSource("org.arcref.oracle.ConformanceTracesOracleTest#releases211")
    void twoThousandRandomTracesAgreeWithArcC(ZfsRelease release) {
        long tries = Boolean.getBoolean("oracle.large") ? 20_000 : 2_000;
        try (Oracles.Session oracle = Oracles.session(release)) {
            Explorer.Plan plan = new Explorer.Plan(SEED, Shard.parse("0/1"), tries, 0, List.of(CheckKind.ORACLE));
            ExploreResult r = new Explorer(new Checker().withOracle(oracle.comparison()), plan)
                    .run(() -> false, done -> { });
            assertNull(r.failure(), () -> r.failure().shrunk().message() + "\nshrunk trace:\n"
                    + String.join("\n", r.failure().shrunkOps().stream().map(o -> o.toTraceLine()).toList()));
            assertEquals(tries, r.tries());
            long ops = 0;
            for (long t = 0; t < tries; t++) {
                ops += Explorer.tryOf(CheckKind.ORACLE, release.engine(), Explorer.trySeed(SEED, t)).operations()
                        .size();
            }
            System.out.printf(Locale.ROOT, "oracle campaign, zfs-%s: seed %d, %d traces, %d operations compared in "
                    + "%.1f s: %.0f operations/s%n", release, SEED, tries, ops, r.elapsedNanos() / 1e9,
                    ops / (r.elapsedNanos() / 1e9));
        }
    }

    static final int TRIES_22 = 200;

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void exploresTriesOfZfs22AgreeWithArcC(ZfsRelease release) {
        try (Oracles.Session oracle = Oracles.session(release)) {
            Checker checker = new Checker().withOracle(oracle.comparison());
            assertEquals(ZfsEngine.V2_2_0, checker.oracleEngine());
            Explorer.Plan plan = new Explorer.Plan(SEED, Shard.parse("0/1"), TRIES_22, 0, List.of(CheckKind.ORACLE));
            ExploreResult r = new Explorer(checker, plan).run(() -> false, done -> { });
            assertNull(r.failure(), () -> r.failure().shrunk().message() + "\nshrunk trace:\n"
                    + String.join("\n", r.failure().shrunkOps().stream().map(o -> o.toTraceLine()).toList()));
            assertEquals(TRIES_22, r.tries());
        }
    }

    /**
     * zfs-2.2.0's engine: against arc.c counting header memory ({@code no_header_memory} off), the first try
     * diverges and is shrunk to one operation that allocates a header.
     */
    @Test
    void aDivergenceOfZfs22IsFoundAndShrunk() {
        try (OracleProcess process = OracleProcess.start(Oracles.released(ZfsRelease.V2_2_0),
                Map.of(OracleProcess.Switch.NO_HEADER_MEMORY, false))) {
            Checker checker = new Checker().withOracle(new OracleComparison(process, ZfsEngine.V2_2_0,
                    EnumSet.noneOf(QuirkFix.class)));
            Explorer.Plan plan = new Explorer.Plan(SEED, Shard.parse("0/1"), 10, 0, List.of(CheckKind.ORACLE));
            Failure f = new Explorer(checker, plan).run(() -> false, done -> { }).failure();
            assertNotNull(f, "header memory counted must diverge within 10 tries");
            assertEquals(ZfsEngine.V2_2_0, f.settings().engine());
            assertEquals("G1", f.shrunk().rule(), f.shrunk().message());
            assertTrue(f.shrunk().firstLine().contains("arc_size"), f.shrunk().firstLine());
            assertEquals(1, f.shrunkOps().size(), "shrunk to " + f.shrunkOps());
            System.out.println("oracle campaign of zfs-2.2.0's engine, header memory counted: try " + f.tryIndex()
                    + " shrunk " + f.originalOps().size() + " -> 1 operation: " + f.shrunk().firstLine());
        }
    }

    /**
     * A campaign finds a divergence and shrinks it: against arc.c with scatter chunk waste counted (the switch
     * off), a try that allocates a scatter ABD of less than a page diverges, and the shrinker keeps a trace of a few
     * operations that still diverges.
     */
    @Test
    void aDivergenceIsFoundAndShrunk() {
        try (OracleProcess process = OracleProcess.start(Oracles.released(ZfsRelease.V2_1_1),
                Map.of(OracleProcess.Switch.NO_CHUNK_WASTE, false))) {
            Checker checker = new Checker().withOracle(new OracleComparison(process, EnumSet.noneOf(QuirkFix.class)));
            Explorer.Plan plan = new Explorer.Plan(SEED, Shard.parse("0/1"), 200, 0, List.of(CheckKind.ORACLE));
            ExploreResult r = new Explorer(checker, plan).run(() -> false, done -> { });
            Failure f = r.failure();
            assertNotNull(f, "chunk waste counted must diverge within 200 tries");
            assertTrue(f.shrunk().failed(), f.shrunk().message());
            assertEquals("G1", f.shrunk().rule(), f.shrunk().message());
            assertTrue(f.shrunkOps().size() <= 3, "shrunk to " + f.shrunkOps());
            System.out.println("oracle campaign, chunk waste counted: try " + f.tryIndex() + " shrunk "
                    + f.originalOps().size() + " -> " + f.shrunkOps().size() + " operations: "
                    + f.shrunk().firstLine());
        }
    }
}
