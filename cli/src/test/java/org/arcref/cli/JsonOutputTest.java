package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Machine-readable output: {@code --json} of explore, soak, verify and conform {@code --coverage}. */
class JsonOutputTest {

    @TempDir
    Path dir;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return (Map<String, Object>) JsonParser.parse(text.strip());
    }

    @Test
    void exploreJsonHasTheSeedTriesAndVerdictAndTheSeedIsPrintedAtTheStart() {
        CliRun r = arc("explore", "--tries", "20", "--seed", "11", "--checks", "invariants", "--json", "--out",
                dir.toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        Map<String, Object> o = json(r.out());
        assertEquals(BigInteger.valueOf(11), o.get("seed"));
        assertEquals(BigInteger.valueOf(20), o.get("tries"));
        assertEquals("passed", o.get("verdict"));
        assertEquals("arc explore: seed 11, shard 0/1, 20 tries", r.err().lines().findFirst().orElseThrow());
    }

    @Test
    void soakJsonHasTheCountsAndViolations() {
        CliRun r = arc("soak", "--duration", "300ms", "--threads", "2", "--json");
        assertEquals(ExitCode.SUCCESS, r.status(), r.out() + r.err());
        Map<String, Object> o = json(r.out());
        assertEquals(BigInteger.valueOf(2), o.get("threads"));
        assertEquals(List.of(), o.get("violations"));
        assertTrue(((BigInteger) o.get("operations")).signum() > 0, r.out());
    }

    @Test
    void verifyJsonNamesTheDivergence() throws IOException {
        Path expected = dir.resolve("e.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", "basic", "-o", expected.toString()).status());
        List<String> lines = Files.readAllLines(expected);
        Path actual = dir.resolve("a.jsonl");
        lines.set(2, lines.get(2).replaceFirst("\"outcome\":\"[A-Z_]+\"", "\"outcome\":\"WRONG\""));
        Files.write(actual, lines);
        CliRun same = arc("verify", expected.toString(), expected.toString(), "--json");
        assertEquals(ExitCode.SUCCESS, same.status(), same.err());
        assertEquals("match", json(same.out()).get("verdict"));
        CliRun diff = arc("verify", expected.toString(), actual.toString(), "--json");
        assertEquals(ExitCode.FINDING, diff.status(), diff.err());
        Map<String, Object> o = json(diff.out());
        assertEquals("divergence", o.get("verdict"));
        @SuppressWarnings("unchecked")
        Map<String, Object> d = ((List<Map<String, Object>>) o.get("divergences")).get(0);
        assertEquals(BigInteger.valueOf(3), d.get("line"));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = ((List<Map<String, Object>>) d.get("fields")).get(0);
        assertEquals("outcome", f.get("field"));
        assertEquals("WRONG", f.get("actual"));
    }

    @Test
    void reportJsonHasTheHitRatiosOfEveryPolicy() {
        CliRun r = arc("report", "--length", "5000", "--sizes", "100,200", "--json", "--out",
                dir.resolve("r.html").toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        Map<String, Object> o = json(r.out());
        assertEquals(BigInteger.valueOf(5000), o.get("requests"));
        assertEquals(8, ((List<?>) o.get("hitRatios")).size(), "four policies at two sizes");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> fractions = (Map<String, Map<String, Object>>) o.get("zfs22Fractions");
        assertEquals(List.of("arc_meta", "arc_pd", "arc_pm"), List.copyOf(fractions.keySet()));
        assertEquals(new BigDecimal("0.5000"), fractions.get("arc_pm").get("min"), "no metadata: arc_pm stays 1/2");
        assertEquals(new BigDecimal("0.5000"), fractions.get("arc_pm").get("max"));
        assertTrue(((BigDecimal) fractions.get("arc_meta").get("max")).compareTo(new BigDecimal("0.25")) <= 0,
                "data ghost hits only lower arc_meta from its 1/4: " + fractions);
        CliRun toStdout = arc("report", "--length", "5000", "--json", "--out", "-");
        assertEquals(ExitCode.BAD_INPUT, toStdout.status());
    }

    @Test
    void conformCoverageJsonListsTheCoveredTransitions() {
        CliRun r = arc("conform", "basic", "--coverage", "--json");
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        Map<String, Object> o = json(r.err());
        assertEquals("builtin:basic", o.get("trace"));
        assertTrue(!((List<?>) o.get("covered")).isEmpty(), r.err());
    }
}
