package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Explorer;
import org.arcref.explore.RandomScenario;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arc gen} end to end, in process: a seed fixes the traces byte for byte, trace {@code i} is try {@code i} of
 * {@code arc explore}'s oracle check (the same generator), each trace runs through {@code arc conform} and
 * {@code arc verify} as drawn, the options shape the traces, and bad arguments are named before any work.
 */
class GenCommandTest {

    @TempDir
    Path dir;

    private static CliRun gen(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "gen";
        System.arraycopy(args, 0, all, 1, args.length);
        return arc(all);
    }

    private static ConformanceTrace parse(String text) throws IOException {
        return ConformanceTrace.read(new BufferedReader(new StringReader(text)), "gen");
    }

    private static List<Operation> operations(ConformanceTrace t) {
        return t.steps().stream().map(ConformanceTrace.Step::operation).toList();
    }

    @Test
    void theSameSeedGivesTheSameTracesAndAnotherSeedOthers() throws IOException {
        CliRun a = gen("--seed", "11");
        CliRun b = gen("--seed", "11");
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertNotEquals(a.out(), gen("--seed", "12").out());
        assertEquals(0, gen("--seed", "11", "--count", "3", "-o", dir.toString()).status());
        assertEquals(a.out(), Files.readString(dir.resolve("gen-11-0.ops")), "trace 0 is the single trace");
        assertNotEquals(Files.readString(dir.resolve("gen-11-1.ops")), Files.readString(dir.resolve("gen-11-2.ops")));
    }

    @Test
    void traceIIsTryIOfExploresOracleCheck() throws IOException {
        long seed = 5;
        assertEquals(0, gen("--seed", "" + seed, "--count", "4", "-o", dir.toString()).status());
        for (int i = 0; i < 4; i++) {
            long trySeed = Explorer.trySeed(seed, i);
            ConformanceTrace t = parse(Files.readString(dir.resolve(GenCommand.fileName(seed, i))));
            RandomScenario.Generated explored = Explorer.tryOf(CheckKind.ORACLE, ZfsEngine.V2_1_1, trySeed);
            assertEquals(explored.operations(), operations(t), "trace " + i);
            ConformanceSettings s = t.applySettings(ConformanceSettings.defaults());
            assertEquals(explored.settings(), s, "trace " + i + "'s settings");
        }
    }

    @Test
    void withZfs22TraceIIsTryIOfExploresOracleCheckOfThatEngine() throws IOException {
        long seed = 5;
        assertEquals(0, gen("--zfs", "2.2.0", "--seed", "" + seed, "--count", "4", "-o", dir.toString()).status());
        for (int i = 0; i < 4; i++) {
            long trySeed = Explorer.trySeed(seed, i);
            String text = Files.readString(dir.resolve(GenCommand.fileName(seed, i)));
            assertTrue(text.startsWith("# arc gen --zfs 2.2.0 --seed 5: trace " + i + " (try seed " + trySeed + ")\n"),
                    text);
            ConformanceTrace t = parse(text);
            RandomScenario.Generated explored = Explorer.tryOf(CheckKind.ORACLE, ZfsEngine.V2_2_0, trySeed);
            assertEquals(explored.operations(), operations(t), "trace " + i);
            assertEquals(explored.settings(), t.applySettings(ConformanceSettings.defaults(ZfsEngine.V2_2_0)),
                    "trace " + i + "'s settings");
        }
        assertEquals(gen("--zfs", "2.2.0", "--seed", "9").out().lines().skip(1).toList(),
                gen("--zfs", "2.2.11", "--seed", "9").out().lines().skip(1).toList(),
                "2.2.11 runs 2.2.0's engine: the same trace, its fixes applied by arc conform --zfs 2.2.11");
    }

    @Test
    void zfs22TracesMixDataAndMetadataAndUncachedAndRoundTripThroughConformAndVerify() throws IOException {
        boolean meta = false;
        boolean uncachedRead = false;
        boolean uncachedWrite = false;
        for (int seed = 0; seed < 5; seed++) {
            Path trace = dir.resolve("t" + seed + ".ops");
            Path expected = dir.resolve("t" + seed + ".jsonl");
            assertEquals(0, gen("--zfs", "2.2.0", "--seed", "" + seed, "--ops", "300", "-o", trace.toString())
                    .status());
            for (Operation op : operations(parse(Files.readString(trace)))) {
                meta |= op instanceof Operation.Read r && r.type() == BufType.METADATA;
                uncachedRead |= op instanceof Operation.Read r && r.uncached();
                uncachedWrite |= op instanceof Operation.Write w && w.uncached();
            }
            CliRun conform = arc("conform", "--zfs", "2.2.0", trace.toString(), "-o", expected.toString());
            assertEquals(0, conform.status(), "seed " + seed + ": " + conform.err());
            assertEquals(301, Files.readAllLines(expected).size(), "seed " + seed + ": the header and 300 lines");
            assertTrue(Files.readAllLines(expected).get(0).contains("\"zfs\":\"2.2.0\""), "the header names 2.2.0");
            CliRun verify = arc("verify", expected.toString());
            assertEquals(0, verify.status(), "seed " + seed + ": " + verify.out() + verify.err());
        }
        assertTrue(meta && uncachedRead && uncachedWrite, "metadata reads, uncached reads and writes are drawn");
    }

    @Test
    void aSettingTheEngineLacksIsRejectedNamingIt() {
        CliRun r = gen("--zfs", "2.2.0", "--seed", "1", "--set", "arc_p_min_shift=4");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("arc_p_min_shift") && r.err().contains("2.2.0"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void aGeneratedTraceRoundTripsThroughConformAndVerify() throws IOException {
        for (int seed = 0; seed < 5; seed++) {
            Path trace = dir.resolve("t" + seed + ".ops");
            Path expected = dir.resolve("t" + seed + ".jsonl");
            assertEquals(0, gen("--seed", "" + seed, "--ops", "300", "-o", trace.toString()).status());
            CliRun conform = arc("conform", trace.toString(), "-o", expected.toString());
            assertEquals(0, conform.status(), "seed " + seed + ": " + conform.err());
            assertEquals(301, Files.readAllLines(expected).size(), "seed " + seed + ": the header and 300 lines");
            CliRun verify = arc("verify", expected.toString());
            assertEquals(0, verify.status(), "seed " + seed + ": " + verify.out() + verify.err());
            assertTrue(verify.out().contains("matches the spec on t" + seed + ".ops"), verify.out());
        }
    }

    @Test
    void opsKeysAndSetShapeTheTraceAndAreRecordedInItsFirstLine() throws IOException {
        CliRun r = gen("--seed", "3", "--ops", "500", "--keys", "3", "--set", "zfs_multilist_num_sublists=1",
                "--set", "growth_window=2048", "--set", "arc_c_min=8192", "--set", "arc_c_max=16384", "--set",
                "spa_maxblocksize=1024");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("# arc gen --seed 3 --ops 500 --keys 3 --set zfs_multilist_num_sublists=1 "
                + "--set growth_window=2048 --set arc_c_min=8192 --set arc_c_max=16384 --set spa_maxblocksize=1024: "
                + "trace 0 (try seed " + Explorer.trySeed(3, 0) + ")\n"), r.out());
        ConformanceTrace t = parse(r.out());
        assertEquals(500, t.steps().size());
        ConformanceSettings s = t.applySettings(ConformanceSettings.defaults());
        assertEquals(1, s.config().sublists());
        assertEquals(16384, s.config().cMax());
        assertEquals(1024, s.config().maxBlockSize());
        boolean sizeOf1024 = false;
        for (Operation op : operations(t)) {
            if (op instanceof Operation.Read read) {
                assertTrue(read.key() < 3 || read.key() >= RandomScenario.FIRST_WRITE_KEY, op.toTraceLine());
                assertTrue(read.size() <= 1024, "sizes follow the given spa_maxblocksize: " + op.toTraceLine());
                sizeOf1024 |= read.size() == 1024;
            }
            if (op instanceof Operation.Write write) {
                assertTrue(write.size() <= 1024, "sizes follow the given spa_maxblocksize: " + op.toTraceLine());
                sizeOf1024 |= write.size() == 1024;
            }
        }
        assertTrue(sizeOf1024, "a block of the given spa_maxblocksize");
        List<Operation> drawnLength = operations(parse(gen("--seed", "3").out()));
        List<Operation> longer = operations(parse(gen("--seed", "3", "--ops", "500").out()));
        assertEquals(drawnLength, longer.subList(0, drawnLength.size()), "--ops replaces the drawn length only");
    }

    @Test
    void badArgumentsAreNamedWithTheRuleAndValueBeforeAnyWork() {
        assertBadBeforeWork(gen("--ops", "0"), "arc: --ops must be in [1, 1000000], was 0");
        assertBadBeforeWork(gen("--zfs", "2.3.0"), "arc: --zfs must be one of 2.1.1, 2.1.16, 2.2.0, 2.2.11 (the releases "
                + "the spec follows), was \"2.3.0\"");
        assertBadBeforeWork(gen("--keys", "1001"), "arc: --keys must be in [1, 1000] (keys from 1000 on are written ones), "
                + "was 1001");
        assertBadBeforeWork(gen("--count", "0", "-o", dir.toString()), "arc: --count must be in [1, 100000], was 0");
        assertBadBeforeWork(gen("--count", "2"), "arc: --count needs -o DIR, the directory the traces are written to, was not "
                + "given");
        assertBadBeforeWork(gen("--count", "2", "-o", dir.resolve("none").toString()), "arc: -o/--output with --count must "
                + "be an existing directory, was " + dir.resolve("none"));
        assertBadBeforeWork(gen("-o", dir.resolve("none").resolve("t.ops").toString()), "arc: -o/--output: the folder must "
                + "exist, was " + dir.resolve("none"));
        assertBad(gen("--seed", "1", "--set", "zfs_multilist_num_sublists=0"),
                "arc: --set zfs_multilist_num_sublists: must be in [1, ");
        assertBad(gen("--ops", "x"), "arc: Invalid value for option '--ops': 'x' is not an int");
    }

    private static void assertBad(CliRun r, String messageStart) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
        String last = r.err().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith(messageStart), r.err());
        assertEquals("", r.out());
    }

    /** Bad, and found before a trace is drawn: the run's seed line is not printed. */
    private static void assertBadBeforeWork(CliRun r, String messageStart) {
        assertBad(r, messageStart);
        assertFalse(r.err().contains("arc gen: seed"), r.err());
    }

    @Test
    void helpShowsExamples() {
        CliRun r = arc("gen", "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().contains("arc gen --seed 7 > t.ops && arc conform t.ops -o t.jsonl && arc verify t.jsonl"),
                r.out());
        assertTrue(arc("--help").out().contains("  gen "), "arc --help lists gen");
        String setExample = "arc gen --seed 7 --set spa_maxblocksize=1024 --set hz=300";
        assertTrue(r.out().contains(setExample), r.out());
        CliRun example = gen(setExample.substring("arc gen ".length()).split(" "));
        assertEquals(0, example.status(), "the --set example runs on the drawn settings: " + example.err());
    }
}
