package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceTrace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code arc conform} and {@code arc verify} end to end, in process: output round-trips through
 * verify, a changed field is reported with its line, field, values and the operations before it,
 * malformed files are named with their line, and both commands have help with examples.
 */
class ConformVerifyCommandTest {

    @TempDir
    Path dir;

    static List<String> builtins() {
        return ConformanceTrace.builtinNames();
    }

    private Path conform(String trace, String... more) {
        Path file = dir.resolve(trace.replace(':', '_') + ".jsonl");
        List<String> args = new ArrayList<>(List.of("conform", trace, "-o", file.toString()));
        args.addAll(List.of(more));
        CliRun r = arc(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        return file;
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void everyBuiltinTraceRoundTripsThroughVerify(String name) {
        Path out = conform(name);
        CliRun twoFiles = arc("verify", out.toString(), out.toString());
        assertEquals(0, twoFiles.status(), twoFiles.out() + twoFiles.err());
        CliRun againstSpec = arc("verify", out.toString());
        assertEquals(0, againstSpec.status(), againstSpec.out() + againstSpec.err());
        assertTrue(againstSpec.out().startsWith("arc verify: " + out + " matches the spec on builtin:" + name + ": "),
                againstSpec.out());
    }

    @Test
    void conformWritesAHeaderWithSettingsAndFixesThenOneLinePerOperation() throws IOException {
        Path out = conform("basic", "--fix", "SHRINK_CLAMPS_ARC_P_OURS", "--set", "zfs_arc_evict_batch_limit=3");
        List<String> lines = Files.readAllLines(out);
        assertEquals(1 + ConformanceTrace.builtin("basic").steps().size(), lines.size());
        String header = lines.get(0);
        assertTrue(header.startsWith("{\"format\":\"arcref-conformance\",\"version\":5,\"zfs\":\"2.1.1\","
                + "\"revision\":5,\"trace\":\"builtin:basic\",\"trace_sha256\":\"" + ConformanceTrace.builtin("basic").sha256()
                + "\",\"headers\":false,\"config\":{\"arc_c_min\":8192,"), header);
        assertTrue(header.contains("\"zfs_arc_evict_batch_limit\":3,"), header);
        assertTrue(header.contains("\"SHRINK_CLAMPS_ARC_P_OURS\":true"), header);
        assertTrue(header.contains("\"ARC_P_GROWTH_CAP_14137\":false"), header);
        assertTrue(lines.get(1).startsWith("{\"index\":1,\"line\":4,\"op\":\"read 1 1024 demand\",\"outcome\":\"MISS\","
                + "\"evicted\":[],\"tick\":0,\"arc_c\":8192,\"arc_p\":4096,\"arc_size\":1024,"), lines.get(1));
    }

    /**
     * zfs-2.2.0's engine's lines are version 5 too, with the engine's own revision; a header with the version before
     * the revision field is refused.
     */
    @Test
    void theEngineOfZfs22WritesAndReadsVersion5WithItsRevision() throws IOException {
        Path out = conform("metadata-basic", "--zfs", "2.2.0");
        List<String> lines = Files.readAllLines(out);
        assertTrue(lines.get(0).startsWith("{\"format\":\"arcref-conformance\",\"version\":5,\"zfs\":\"2.2.0\","
                + "\"revision\":2,"), lines.get(0));
        CliRun r = arc("verify", out.toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.out() + r.err());
        Path old = dir.resolve("v4-22.jsonl");
        Files.writeString(old, lines.get(0).replace("\"version\":5", "\"version\":4") + "\n");
        r = arc("verify", old.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + old + ":1: the header's \"version\" must be 5 (the version this tool reads for zfs "
                + "2.2.0), was 4", r.err().strip());
    }

    /**
     * A port that claims an older revision is compared all the same: {@code arc verify} names both revisions and
     * what each one between them changed, and the operation lines decide (basic behaves alike in revisions 3 to 5).
     */
    @Test
    void verifyNotesRevisionsThatDiffer() throws IOException {
        Path out = conform("basic");
        List<String> lines = new ArrayList<>(Files.readAllLines(out));
        lines.set(0, lines.get(0).replace("\"revision\":5", "\"revision\":3"));
        Path older = dir.resolve("older.jsonl");
        Files.write(older, lines);
        CliRun r = arc("verify", out.toString(), older.toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("the outputs follow different revisions of zfs-2.1.1's engine: expected 5, "
                + "actual 3; docs/porting.md's changelog says what a port changes between them; revision 4: an "
                + "allocation that waits for eviction holds its hashed header's hash lock"), r.out());
        assertTrue(r.out().contains("(trace hash-lock-zero); revision 5: with quirk fixes only"), r.out());
        assertFalse(r.out().contains("revision 3:"), r.out());
        lines.set(0, lines.get(0).replace("\"revision\":3", "\"revision\":7"));
        Files.write(older, lines);
        r = arc("verify", older.toString());
        assertEquals(ExitCode.SUCCESS, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("expected 5, actual 7; docs/porting.md's changelog says what a port changes "
                + "between them (this tool knows revisions up to 5)"), r.out());
        for (String bad : List.of("0", "-1", "\"5\"", "2147483648", "1.5")) {
            lines.set(0, lines.get(0).replaceFirst("\"revision\":[^,]*,", "\"revision\":" + bad + ","));
            Files.write(older, lines);
            r = arc("verify", out.toString(), older.toString());
            assertEquals(ExitCode.BAD_INPUT, r.status(), bad + ": " + r.out() + r.err());
            assertTrue(r.err().strip().startsWith("arc: " + older + ":1: header field revision must be an integer in "
                    + "[1, 2147483647], was "), bad + ": " + r.err());
        }
    }

    /**
     * {@code --zfs 2.1.16} applies exactly the upstream fixes 2.1.16 shipped, the header names the release, and
     * {@code arc verify} re-runs the spec from that header; {@code --fix} adds to the release's fixes.
     */
    @Test
    void conformFollowsTheReleaseItIsGiven() throws IOException {
        Path out = conform("basic", "--zfs", "2.1.16");
        String header = Files.readAllLines(out).get(0);
        assertTrue(header.startsWith("{\"format\":\"arcref-conformance\",\"version\":5,\"zfs\":\"2.1.16\","
                + "\"revision\":5,"), header);
        assertTrue(header.endsWith(",\"fixes\":{\"WRITE_SHARES_LINEAR_12425\":true,\"REAP_ABOVE_C_MIN_13794\":true,"
                + "\"ARC_P_GROWTH_CAP_14137\":true,\"ADAPT_MRU_64BIT_MULTIPLY_14094\":false,"
                + "\"ADAPT_MFU_64BIT_MULTIPLY_OURS\":false,\"SHRINK_CLAMPS_ARC_P_OURS\":false}}"), header);
        CliRun againstSpec = arc("verify", out.toString());
        assertEquals(0, againstSpec.status(), againstSpec.out() + againstSpec.err());
        String withOurs = Files.readAllLines(conform("builtin:basic", "--zfs", "2.1.16", "--fix",
                "SHRINK_CLAMPS_ARC_P_OURS")).get(0);
        assertTrue(withOurs.contains("\"zfs\":\"2.1.16\","), withOurs);
        assertTrue(withOurs.contains("\"SHRINK_CLAMPS_ARC_P_OURS\":true"), withOurs);
        String partial = Files.readAllLines(conform("eviction", "--fix", "ARC_P_GROWTH_CAP_14137")).get(0);
        assertTrue(partial.contains("\"zfs\":\"2.1.1\","), "one fix of 2.1.16 is not 2.1.16: " + partial);
    }

    @Test
    void aReleaseTheSpecDoesNotFollowIsBadUsage() {
        CliRun r = arc("conform", "basic", "--zfs", "2.3.0");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().contains("--zfs must be one of 2.1.1, 2.1.16, 2.2.0, 2.2.11 (the releases the spec follows), "
                + "was \"2.3.0\""), r.err());
        assertEquals("", r.out());
    }

    /** A header whose zfs field its fixes contradict is malformed: the release would not produce that output. */
    @Test
    void aHeaderWhoseFixesAreNotItsReleasesIsRejected() throws IOException {
        Path out = conform("basic", "--zfs", "2.1.16");
        List<String> lines = new ArrayList<>(Files.readAllLines(out));
        lines.set(0, lines.get(0).replace("\"zfs\":\"2.1.16\"", "\"zfs\":\"2.1.1\""));
        Path claimed = dir.resolve("claimed.jsonl");
        Files.write(claimed, lines);
        CliRun r = arc("verify", claimed.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("header field zfs is \"2.1.1\", but its fixes are those of zfs 2.1.16"), r.err());
        lines.set(0, lines.get(0).replace("\"zfs\":\"2.1.1\"", "\"zfs\":\"2.2.0\""));
        Files.write(claimed, lines);
        r = arc("verify", claimed.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("header field config.spa_old_maxblocksize is missing"), r.err());
        lines.set(0, lines.get(0).replace("\"zfs\":\"2.2.0\"", "\"zfs\":\"2.3.0\""));
        Files.write(claimed, lines);
        r = arc("verify", claimed.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("header field zfs must be one of 2.1.1, 2.1.16, 2.2.0, 2.2.11, was \"2.3.0\""),
                r.err());
    }

    @Test
    void conformIsDeterministic() {
        CliRun a = arc("conform", "waiters", "--headers");
        CliRun b = arc("conform", "waiters", "--headers");
        assertEquals(0, a.status(), a.err());
        assertEquals(a.out(), b.out());
        assertTrue(a.out().contains("\"headers\":[{\"key\":"), "--headers lists every header");
    }

    @Test
    void evictionsNameKeySizeAndStates() {
        CliRun r = arc("conform", "eviction");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\"op\":\"read 13 512 demand\",\"outcome\":\"MISS\",\"evicted\":["
                + "{\"key\":1,\"size\":512,\"from\":\"mfu\",\"to\":\"mfu_ghost\"},"
                + "{\"key\":2,\"size\":512,\"from\":\"mfu\",\"to\":\"mfu_ghost\"}]"), r.out());
        assertTrue(r.out().contains("{\"key\":10,\"size\":512,\"from\":\"mru_ghost\",\"to\":\"destroyed\"}"), r.out());
    }

    @Test
    void aChangedFieldIsTheFirstDivergenceWithLineFieldValuesAndContext() throws IOException {
        Path expected = conform("ghost-adaptation");
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        String line24 = lines.get(23);
        assertTrue(line24.contains("\"arc_p\":3840,"), line24);
        lines.set(23, line24.replace("\"arc_p\":3840,", "\"arc_p\":3841,"));
        lines.set(30, lines.get(30).replace("\"outcome\":\"", "\"outcome\":\"X"));
        Path actual = dir.resolve("port.jsonl");
        Files.write(actual, lines);
        CliRun r = arc("verify", expected.toString(), actual.toString(), "--context", "2");
        assertEquals(ExitCode.FINDING, r.status(), r.out() + r.err());
        assertEquals(String.join("\n",
                "arc verify: " + actual + " diverges from " + expected + " at line 24 (operation 23)",
                "  field:    arc_p",
                "  expected: 3840",
                "  actual:   3841",
                "operations leading to it (expected):",
                "  operation 22 (trace line 26): read 15 512 demand -> MISS",
                "  operation 23 (trace line 27): read 7 512 demand -> GHOST_HIT_MRU", ""), r.out());
        CliRun one = arc("verify", actual.toString());
        assertEquals(ExitCode.FINDING, one.status());
        assertTrue(one.out().contains("diverges from the spec on builtin:ghost-adaptation at line 24"), one.out());
    }

    @Test
    void missingFieldsExtraFieldsAndMissingLinesAreDivergences() throws IOException {
        Path expected = conform("basic");
        List<String> lines = Files.readAllLines(expected);
        Path noStats = dir.resolve("a.jsonl");
        List<String> changed = new ArrayList<>(lines);
        changed.set(2, changed.get(2).replace("\"evict_waits\":0,", ""));
        Files.write(noStats, changed);
        CliRun r = arc("verify", expected.toString(), noStats.toString());
        assertEquals(ExitCode.FINDING, r.status());
        assertTrue(r.out().contains("line 3 (operation 2)\n  field:    stats.evict_waits\n  expected: 0\n"
                + "  actual:   (absent)"), r.out());

        Path extra = dir.resolve("b.jsonl");
        changed = new ArrayList<>(lines);
        changed.set(1, changed.get(1).replace("\"evicted\":[]", "\"evicted\":[{\"key\":7}]"));
        Files.write(extra, changed);
        r = arc("verify", expected.toString(), extra.toString());
        assertTrue(r.out().contains("  field:    evicted[0]\n  expected: (absent)\n  actual:   {\"key\":7}"), r.out());

        Path shorter = dir.resolve("c.jsonl");
        Files.write(shorter, lines.subList(0, lines.size() - 1));
        r = arc("verify", expected.toString(), shorter.toString());
        assertEquals(ExitCode.FINDING, r.status());
        assertTrue(r.out().contains(": the port's output ends after operation " + (lines.size() - 2) + " (expected "
                + (lines.size() - 1) + " operations)\n"), r.out());
    }

    @Test
    void aDifferentFixInTheHeaderIsADivergenceOnLineOne() throws IOException {
        Path plain = conform("quirk-shrink-arc-p");
        Path fixed = dir.resolve("fixed.jsonl");
        assertEquals(0, arc("conform", "quirk-shrink-arc-p", "--fix", "SHRINK_CLAMPS_ARC_P_OURS", "-o",
                fixed.toString()).status());
        CliRun r = arc("verify", plain.toString(), fixed.toString());
        assertEquals(ExitCode.FINDING, r.status());
        assertTrue(r.out().contains("at line 1 (the header)\n  field:    fixes.SHRINK_CLAMPS_ARC_P_OURS\n"
                + "  expected: false\n  actual:   true"), r.out());
        assertEquals(0, arc("verify", fixed.toString()).status(), "the header's fixes are re-run");
    }

    @Test
    void malformedConformanceFilesNameFileAndLine() throws IOException {
        Path expected = conform("basic");
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        lines.set(2, lines.get(2).substring(0, 40));
        Path broken = dir.resolve("broken.jsonl");
        Files.write(broken, lines);
        CliRun r = arc("verify", expected.toString(), broken.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + broken + ":3: not JSON: column 41: Unexpected end-of-input: was expecting closing quote "
                + "for a string value, in "
                + "\"\\\"op\\\":\\\"read 1 1024 de\"", r.err().strip());

        Path wrongVersion = dir.resolve("v1.jsonl");
        Files.writeString(wrongVersion, lines.get(0).replace("\"version\":5", "\"version\":1") + "\n");
        r = arc("verify", wrongVersion.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + wrongVersion + ":1: the header's \"version\" must be 5 (the version this tool reads "
                + "for zfs 2.1.1), was 1", r.err().strip());

        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "");
        r = arc("verify", empty.toString());
        assertTrue(r.err().startsWith("arc: " + empty + ":1: the file is empty"), r.err());

        Path noTrace = dir.resolve("notrace.jsonl");
        Files.writeString(noTrace, lines.get(0).replace("builtin:basic", "no-such-trace") + "\n");
        r = arc("verify", noTrace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: " + noTrace + ":1: the header's trace \"no-such-trace\" was not found in "
                + "the output's folder "), r.err());
        assertEquals(1, r.err().strip().lines().count());
    }

    @Test
    void conformOfAFileTraceNamesFileAndLineOfBadLinesAndRejectedOperations() throws IOException {
        Path trace = dir.resolve("t.ops");
        Files.writeString(trace, "# conform: arc_c_min=8192 arc_c_max=16384\nread 1 1K\nread 2 frob\n");
        CliRun r = arc("conform", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + trace + ":3: size must be a non-negative integer with an optional K, M or G suffix, "
                + "got \"frob\"", r.err().strip());

        Files.writeString(trace, "read 1 1K\nrelease 1\n");
        r = arc("conform", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: " + trace + ":2: the spec rejects \"release 1\": "), r.err());

        Files.writeString(trace, "# conform: arc_c_max=100\nread 1 1K\n");
        r = arc("conform", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + trace + ":1: arc_c_max must be in [8192, 2305843009213693951], was 100",
                r.err().strip());

        Files.writeString(trace, "# conform: arc_c_mni=8192\n");
        r = arc("conform", trace.toString());
        assertTrue(r.err().startsWith("arc: " + trace + ":1: setting must be one of arc_c_min, "), r.err());
    }

    @Test
    void badInputIsOneLineNamingTheArgumentTheRuleAndTheValue() {
        CliRun r = arc("conform", "basic", "--set", "arc_c_min=0");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --set arc_c_min: must be in [2048, 2305843009213693951], was 0", r.err().strip());
        r = arc("conform", "basic", "--set", "arc_c_mni=8192");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: --set: setting must be one of arc_c_min, "), r.err());

        Path missing = dir.resolve("no-such-folder");
        r = arc("conform", "basic", "-o", missing.resolve("x.jsonl").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: -o/--output: the folder must exist, was " + missing, r.err().strip());

        r = arc("verify", missing.resolve("x.jsonl").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: conformance file does not exist: " + missing.resolve("x.jsonl"), r.err().strip());
    }

    @Test
    void conformBadUsageIsOneLine() {
        CliRun r = arc("conform", "basic", "--fix", "NO_SUCH_FIX");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: Invalid value for option '--fix'"), r.err());
        r = arc("conform", "basic", "--set", "hz=fast");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --set hz: must be a 32-bit integer in ASCII digits, was \"fast\"", r.err().strip());
        r = arc("conform");
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertTrue(r.err().startsWith("arc: TRACE is required"), r.err());
        r = arc("verify");
        assertEquals(ExitCode.BAD_INPUT, r.status());
    }

    @Test
    void coverageGoesToStandardErrorAndListNamesTheBuiltins() {
        CliRun r = arc("conform", "prefetch", "--coverage");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().startsWith("arc conform: builtin:prefetch covers "), r.err());
        assertTrue(r.err().contains("[x] prefetch_evict_skip"), r.err());
        assertTrue(r.err().contains("[ ] free_ghost"), r.err());
        assertTrue(r.out().lines().allMatch(l -> l.startsWith("{")), "standard output stays JSON Lines");
        CliRun list = arc("conform", "--list");
        assertEquals(String.join("\n", ConformanceTrace.allBuiltinNames()) + "\n", list.out());
        assertTrue(list.out().startsWith("basic\n"), list.out());
        assertTrue(list.out().contains("\nmetadata-basic\n") && list.out().contains("\nuncached\n"),
                "zfs-2.2.0's engine's built-ins are listed too: " + list.out());
        CliRun set = arc("conform", "--list", "--coverage");
        assertEquals(0, set.status(), set.err());
        assertTrue(set.out().contains("\nquirk-adapt-multiply    6 transitions; quirks: ADAPT_MFU_64BIT_MULTIPLY_OURS\n"),
                set.out());
        assertTrue(set.out().endsWith("\ntogether               43 of 43 transitions; 6 of 6 quirks\n"), set.out());
    }

    @Test
    void helpOfBothCommandsHasExamples() {
        for (String cmd : List.of("conform", "verify")) {
            CliRun r = arc(cmd, "--help");
            assertEquals(0, r.status());
            assertTrue(r.out().contains("Examples:"), r.out());
            assertTrue(r.out().contains("arc " + cmd + " "), r.out());
        }
        CliRun top = arc("--help");
        assertTrue(top.out().contains("conform") && top.out().contains("verify"), top.out());
    }
}
