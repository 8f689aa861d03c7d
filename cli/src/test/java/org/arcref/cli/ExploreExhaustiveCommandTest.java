package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.arcref.arc.BrokenArcs;
import org.arcref.conformance.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arc explore --exhaustive} end to end: the JSON result, a violation written as a trace that {@code arc
 * conform} replays, and usage errors.
 */
class ExploreExhaustiveCommandTest {

    @TempDir
    Path dir;

    @Test
    void printsTheResultAsJson() {
        CliRun r = CliRun.arc("explore", "--exhaustive", "--depth", "3", "--json", "--out", dir.toString());
        assertEquals(0, r.status(), r.err());
        Map<?, ?> json = (Map<?, ?>) JsonParser.parse(r.out().strip());
        assertEquals("DEPTH_BOUND", json.get("stop"));
        assertEquals(List.of(BigInteger.ONE, BigInteger.valueOf(6), BigInteger.valueOf(42), BigInteger.valueOf(264)),
                json.get("statesPerDepth"), "the CI configuration's first depths (ExhaustiveX1Test)");
        assertEquals(BigInteger.valueOf(313), json.get("states"));
        assertEquals(null, json.get("violation"));
    }

    @Test
    void aViolationIsWrittenAsItsShortestTraceWhichArcConformReplays() throws Exception {
        ExploreCommand command = new ExploreCommand();
        command.exhaustive.arcs = BrokenArcs::prefetchLifetimesIgnored;
        CliRun r = CliRun.command(command, "--exhaustive", "--out", dir.toString());
        assertEquals(ExitCode.FINDING, r.status(), r.out() + r.err());
        Path trace = dir.resolve("arc-explore-exhaustive-D1-depth3.trace");
        assertTrue(Files.exists(trace), r.err());
        assertTrue(r.err().contains("arc conform " + trace), r.err());
        List<String> ops = Files.readAllLines(trace).stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(3, ops.size(), "the shortest counterexample: " + ops);
        CliRun conform = CliRun.arc("conform", trace.toString(), "-o", dir.resolve("expected.jsonl").toString());
        assertEquals(0, conform.status(), conform.err());
        assertEquals(4, Files.readAllLines(dir.resolve("expected.jsonl")).size(),
                "a header and one line per operation");
    }

    @Test
    void rejectsOptionsOfTheOtherModeAndBadBounds() {
        CliRun tries = CliRun.arc("explore", "--exhaustive", "--tries", "5");
        assertEquals(2, tries.status());
        assertTrue(tries.err().contains("--tries does not apply to --exhaustive"), tries.err());
        CliRun depth = CliRun.arc("explore", "--depth", "3");
        assertEquals(2, depth.status());
        assertTrue(depth.err().contains("--depth applies only with --exhaustive"), depth.err());
        CliRun keys = CliRun.arc("explore", "--exhaustive", "--keys", "0");
        assertEquals(2, keys.status());
        assertTrue(keys.err().contains("--keys must be in [1, 4096], was 0"), keys.err());
        CliRun cMax = CliRun.arc("explore", "--exhaustive", "--c-min-blocks", "3", "--c-max-blocks", "2");
        assertEquals(2, cMax.status());
        assertTrue(cMax.err().contains("--c-max-blocks must be in [--c-min-blocks=3, 1048576], was 2"), cMax.err());
    }
}
