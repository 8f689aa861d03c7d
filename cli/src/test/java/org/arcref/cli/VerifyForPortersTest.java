package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.JsonParser;
import org.arcref.conformance.JsonWriter;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arc verify} for porters: the trace identified by its digest, every differing field of
 * a divergent operation, {@code --max}, {@code --ignore} and {@code --only}, outputs of another length, and
 * {@code --json} values. Each test mutates a real {@code arc conform} output and checks the report names what
 * was changed.
 */
class VerifyForPortersTest {

    @TempDir
    Path dir;

    private Path conform(String trace, Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("conform", trace, "-o", out.toString()));
        args.addAll(List.of(more));
        CliRun r = arc(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return out;
    }

    /** Writes a copy of {@code expected} with each line in {@code changes} (1-based) parsed, changed and rewritten. */
    @SuppressWarnings("unchecked")
    private Path mutate(Path expected, String name, Map<Integer, Consumer<Map<String, Object>>> changes)
            throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        changes.forEach((line, change) -> {
            Map<String, Object> o = (Map<String, Object>) JsonParser.parse(lines.get(line - 1));
            change.accept(o);
            lines.set(line - 1, JsonWriter.write(o));
        });
        return Files.write(dir.resolve(name), lines);
    }

    private static void add(Map<String, Object> o, String field, long delta) {
        o.put(field, ((BigInteger) o.get(field)).add(BigInteger.valueOf(delta)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void aTraceAtAnotherPathWithTheSameDigestMatchesWithANote() throws IOException {
        Path trace = Files.writeString(dir.resolve("t.ops"), "read 1 1K\nread 1 1K\nread 2 2K\n");
        Path nearby = conform(trace.toString(), dir.resolve("e.jsonl"));
        Path elsewhere = conform(trace.toString(), Files.createDirectory(dir.resolve("out")).resolve("e.jsonl"));
        CliRun r = arc("verify", nearby.toString(), elsewhere.toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.out() + r.err());
        assertEquals(List.of("arc verify: note: the headers' trace paths differ (expected \"t.ops\", actual "
                + "\"../t.ops\"); their trace_sha256 agree, so the trace is the same",
                "arc verify: " + elsewhere + " matches " + nearby + ": 4 lines (the header and 3 operations)"),
                r.out().lines().toList());

        Path other = Files.writeString(dir.resolve("u.ops"), "read 1 1K\nread 1 1K\nread 2 1K\n");
        CliRun changed = arc("verify", nearby.toString(), conform(other.toString(), dir.resolve("u.jsonl")).toString());
        assertEquals(ExitCode.FINDING, changed.status(), changed.out());
        assertTrue(changed.out().startsWith("arc verify: note: the headers' trace paths differ (expected \"t.ops\", "
                + "actual \"u.ops\")\n"), changed.out());
        assertTrue(changed.out().contains("at line 1 (the header)\n  field:    trace_sha256\n"), changed.out());
    }

    @Test
    void everyDifferingFieldOfTheDivergentOperationIsReportedAndHeadersByKeyAndState() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"), "--headers");
        List<String> labels = new ArrayList<>();
        Path actual = mutate(expected, "port.jsonl", Map.of(8, o -> {
            add(o, "arc_size", 512);
            add(object(o.get("stats")), "hits", 1);
            Map<String, Object> h = object(((List<?>) o.get("headers")).get(1));
            add(h, "arc_access", 7);
            labels.add("headers[1] (key " + h.get("key") + ", " + h.get("state") + ").arc_access");
        }, 10, o -> add(o, "arc_c", 1)));
        CliRun r = arc("verify", expected.toString(), actual.toString(), "--context", "1");
        assertEquals(ExitCode.FINDING, r.status(), r.out() + r.err());
        List<String> out = r.out().lines().toList();
        assertEquals("arc verify: " + actual + " diverges from " + expected + " at line 8 (operation 7)", out.get(0));
        List<String> fields = out.stream().filter(l -> l.startsWith("  field:")).toList();
        assertEquals(List.of("  field:    arc_size", "  field:    stats.hits", "  field:    " + labels.get(0)), fields,
                r.out());
        assertFalse(r.out().contains("arc_c"), "line 10 is past --max 1: " + r.out());
        assertEquals("operations leading to it (expected):", out.get(out.size() - 2));
        assertTrue(out.get(out.size() - 1).startsWith("  operation 7 (trace line "), r.out());
    }

    @Test
    void maxReportsThatManyDivergentOperationsThenStops() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"));
        Path actual = mutate(expected, "port.jsonl", Map.of(3, o -> add(o, "arc_p", 1), 5, o -> add(o, "arc_p", 1),
                7, o -> add(o, "arc_p", 1), 9, o -> add(o, "arc_p", 1)));
        CliRun three = arc("verify", expected.toString(), actual.toString(), "--max", "3", "--context", "0");
        assertEquals(ExitCode.FINDING, three.status());
        List<String> heads = three.out().lines().filter(l -> l.contains(" at line ")).toList();
        assertEquals(List.of("arc verify: " + actual + " diverges from " + expected + " at line 3 (operation 2)",
                "and at line 5 (operation 4)", "and at line 7 (operation 6)"), heads, three.out());
        assertTrue(three.out().endsWith("arc verify: stopped after 3 divergent lines (--max 3); the rest was not "
                + "compared\n"), three.out());
        CliRun all = arc("verify", expected.toString(), actual.toString(), "--max", "10");
        assertEquals(4, all.out().lines().filter(l -> l.contains(" at line ")).count(), all.out());
        assertFalse(all.out().contains("stopped after"), all.out());
        CliRun zero = arc("verify", expected.toString(), actual.toString(), "--max", "0");
        assertEquals(ExitCode.BAD_INPUT, zero.status());
        assertEquals("arc: --max must be >= 1, was 0", zero.err().strip());
    }

    @Test
    void ignoreAndOnlyLeaveFieldsOutAndTheSummarySaysWhich() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"), "--headers");
        Path actual = mutate(expected, "port.jsonl", Map.of(4, o -> {
            add(object(o.get("stats")), "hits", 1);
            add(object(((List<?>) o.get("headers")).get(0)), "refcount", 1);
        }));
        CliRun ignored = arc("verify", expected.toString(), actual.toString(), "--ignore", "stats.hits,headers");
        assertEquals(ExitCode.SUCCESS, ignored.status(), ignored.out());
        assertTrue(ignored.out().endsWith("\narc verify: not compared: stats.hits, headers\n"), ignored.out());
        CliRun only = arc("verify", expected.toString(), actual.toString(), "--only", "arc_c", "--only", "arc_p");
        assertEquals(ExitCode.SUCCESS, only.status(), only.out());
        assertTrue(only.out().endsWith("\narc verify: not compared: everything but arc_c, arc_p\n"), only.out());
        CliRun stats = arc("verify", expected.toString(), actual.toString(), "--only", "stats");
        assertEquals(ExitCode.FINDING, stats.status());
        assertEquals(List.of("  field:    stats.hits"),
                stats.out().lines().filter(l -> l.startsWith("  field:")).toList(), stats.out());
        CliRun refcount = arc("verify", expected.toString(), actual.toString(), "--only", "headers.refcount");
        assertEquals(ExitCode.FINDING, refcount.status());
        assertTrue(refcount.out().contains("  field:    headers[0] (key "), refcount.out());
        assertEquals(1, refcount.out().lines().filter(l -> l.startsWith("  field:")).count(), refcount.out());

        Path port = conform("basic", dir.resolve("no-headers.jsonl"));
        CliRun withoutHeaders = arc("verify", expected.toString(), port.toString(), "--ignore", "headers");
        assertEquals(ExitCode.SUCCESS, withoutHeaders.status(), withoutHeaders.out());
        assertEquals(ExitCode.FINDING, arc("verify", expected.toString(), port.toString()).status());
    }

    @Test
    void unknownOrConflictingFieldOptionsAreBadUsageNamingOptionRuleAndValue() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"));
        CliRun r = arc("verify", expected.toString(), expected.toString(), "--only", "arc_q");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --only must name a field of the conformance format, as arc verify prints it without list "
                + "indices (arc_p, stats.hits, states.mru.esize, evicted, headers.arc_access; docs/conformance.md), "
                + "was \"arc_q\"", r.err().strip());
        r = arc("verify", expected.toString(), expected.toString(), "--ignore", "headers[0].key");
        assertTrue(r.err().startsWith("arc: --ignore must name a field"), r.err());
        r = arc("verify", expected.toString(), expected.toString(), "--ignore", "stats", "--only", "arc_p");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --ignore and --only cannot be given together (one names what is not compared, the other "
                + "what is), were --ignore stats and --only arc_p", r.err().strip());
    }

    @Test
    void anOutputOfAnotherLengthNamesBothOperationCounts() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"));
        List<String> lines = Files.readAllLines(expected);
        Path shorter = Files.write(dir.resolve("short.jsonl"), lines.subList(0, 6));
        CliRun r = arc("verify", expected.toString(), shorter.toString(), "--context", "1");
        assertEquals(ExitCode.FINDING, r.status());
        assertEquals(List.of("arc verify: " + shorter + " diverges from " + expected + ": the port's output ends "
                + "after operation 5 (expected " + (lines.size() - 1) + " operations)",
                "operations leading to it (expected):", "  operation 5 (trace line 8): read 1 1024 demand -> HIT_MFU"),
                r.out().lines().toList());
        List<String> more = new ArrayList<>(lines);
        more.add(lines.get(lines.size() - 1));
        more.add(lines.get(lines.size() - 1));
        Path longer = Files.write(dir.resolve("long.jsonl"), more);
        r = arc("verify", expected.toString(), longer.toString(), "--context", "0");
        assertEquals(ExitCode.FINDING, r.status());
        assertEquals("arc verify: " + longer + " diverges from " + expected + ": the port's output has more "
                + "operations than expected: " + (lines.size() + 1) + ", where the expected output ends after "
                + "operation " + (lines.size() - 1) + "\n", r.out());
    }

    @Test
    void jsonKeepsSafeIntegersAsNumbersAndWritesLargerOnesAsStrings() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"));
        BigInteger u64Max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        Path actual = mutate(expected, "port.jsonl", Map.of(3, o -> {
            o.put("arc_p", u64Max);
            o.put("arc_c", BigInteger.ONE.shiftLeft(53));
            o.remove("tick");
        }));
        CliRun r = arc("verify", expected.toString(), actual.toString(), "--json", "--ignore", "arc_size");
        assertEquals(ExitCode.FINDING, r.status(), r.err());
        Map<String, Object> o = object(JsonParser.parse(r.out()));
        assertEquals("arc_size", o.get("not_compared"));
        List<?> fields = (List<?>) object(((List<?>) o.get("divergences")).get(0)).get("fields");
        Map<String, Object> tick = object(fields.get(0));
        assertEquals("tick", tick.get("field"));
        assertTrue(tick.get("expected") instanceof BigInteger && !tick.containsKey("actual"), tick.toString());
        Map<String, Object> c = object(fields.get(1));
        assertEquals("arc_c", c.get("field"));
        assertEquals(BigInteger.ONE.shiftLeft(53).toString(), c.get("actual"), "2^53 is past the safe range");
        Map<String, Object> p = object(fields.get(2));
        assertEquals("arc_p", p.get("field"));
        assertTrue(p.get("expected") instanceof BigInteger, "a small arc_p stays a number: " + p);
        assertEquals(u64Max.toString(), p.get("actual"));
    }

    @Test
    void progressIsOnlyOnATerminalOrAskedFor() throws IOException {
        Path expected = conform("basic", dir.resolve("basic.jsonl"));
        CliRun quiet = arc("verify", expected.toString(), expected.toString());
        assertEquals(ExitCode.SUCCESS, quiet.status());
        assertEquals("", quiet.err(), "standard error is not a terminal here");
        CliRun asked = arc("verify", expected.toString(), expected.toString(), "--progress");
        assertEquals(ExitCode.SUCCESS, asked.status(), asked.err());
    }

    /** The paths --ignore and --only accept are exactly those the writer produces, over every built-in trace. */
    @Test
    void theFieldPathsAreThoseTheFormatWrites() {
        for (ZfsEngine engine : ZfsEngine.values()) {
            Set<String> written = new LinkedHashSet<>();
            for (String name : ConformanceTrace.builtinNames(engine)) {
                ConformanceTrace trace = ConformanceTrace.builtin(name);
                for (String line : ConformanceRun.of(trace, trace.applySettings(ConformanceSettings.defaults(engine)),
                        ConformanceTrace.suiteListsHeaders(name)).lines()) {
                    paths("", JsonParser.parse(line), written);
                }
            }
            assertEquals(new LinkedHashSet<>(ConformanceFormat.fieldPaths(engine)), written, "zfs-" + engine);
        }
    }

    private static void paths(String path, Object value, Set<String> out) {
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                String p = path.isEmpty() ? (String) k : path + "." + k;
                out.add(p);
                paths(p, v, out);
            });
        } else if (value instanceof List<?> l) {
            l.forEach(v -> paths(path, v, out));
        }
    }
}
