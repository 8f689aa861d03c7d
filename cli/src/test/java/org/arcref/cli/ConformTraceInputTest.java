package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.policy.Replay;
import org.arcref.trace.TraceReader;
import org.arcref.zfs.ZfsPageCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The inputs of {@code arc conform} besides an op trace's run: {@code --print-trace} prints the text whose checksum
 * the header carries, and a LIRS or {@code .lis} block trace ({@code --format}, {@code --pages}) runs as the
 * operations {@code arc replay} performs on the spec, with the same hits, named and checksummed in the header so
 * that {@code arc verify} converts it again.
 */
class ConformTraceInputTest {

    /** A LIRS trace with re-references, scans and a breakpoint line. */
    private static final String LIRS = "1\n2\n3\n1\n2\n4\n*\n5\n1\n6\n7\n1\n2\n8\n1\n3\n3\n9\n";

    @TempDir
    Path dir;

    static List<String> builtins() {
        return ConformanceTrace.builtinNames();
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    private static String headerSha256(String jsonl) {
        String key = "\"trace_sha256\":\"";
        int at = jsonl.indexOf(key) + key.length();
        return jsonl.substring(at, jsonl.indexOf('"', at));
    }

    @ParameterizedTest
    @MethodSource("builtins")
    void aPrintedBuiltinTraceHasTheHeadersChecksum(String name) throws NoSuchAlgorithmException {
        CliRun printed = arc("conform", name, "--print-trace");
        assertEquals(0, printed.status(), printed.err());
        assertEquals(ConformanceTrace.builtinText(name), printed.out());
        CliRun run = arc("conform", "builtin:" + name);
        assertEquals(sha256(printed.out().getBytes(StandardCharsets.UTF_8)), headerSha256(run.out()), name);
    }

    @Test
    void aPrintedFileIsItsLinesWithTheHeadersChecksum() throws IOException, NoSuchAlgorithmException {
        Path crlf = Files.writeString(dir.resolve("crlf.ops"), "# conform: arc_c_max=16384\r\nread 1 1K\r\nevict");
        CliRun printed = arc("conform", crlf.toString(), "--print-trace");
        assertEquals(0, printed.status(), printed.err());
        assertEquals("# conform: arc_c_max=16384\nread 1 1K\nevict\n", printed.out());
        assertEquals(sha256(printed.out().getBytes(StandardCharsets.UTF_8)),
                headerSha256(arc("conform", crlf.toString()).out()));
        Path copy = dir.resolve("copy.ops");
        assertEquals(0, arc("conform", crlf.toString(), "--print-trace", "-o", copy.toString()).status());
        assertEquals(printed.out(), Files.readString(copy));
    }

    @Test
    void printTraceRejectsWhatItWouldIgnore() throws IOException {
        Path ops = Files.writeString(dir.resolve("t.ops"), "read 1 1K\nrea 2 1K\n");
        assertBad(arc("conform", ops.toString(), "--print-trace"), "arc: " + ops + ":2: ");
        assertBad(arc("conform", "basic", "--print-trace", "--fix", "ARC_P_GROWTH_CAP_14137"), "arc: --fix has no "
                + "effect with --print-trace (it prints the trace, it does not run it), was given");
        assertBad(arc("conform", "basic", "--print-trace", "--set", "hz=100"), "arc: --set has no effect with "
                + "--print-trace of an op trace (it is printed as it is written), was given");
        assertBad(arc("conform", "nosuch", "--print-trace"), "arc: trace must be an existing file or one of the "
                + ConformanceTrace.allBuiltinNames().size() + " built-in traces (arc conform --list names them), was "
                + "\"nosuch\"");
    }

    @Test
    void aLirsTraceRunsAsReplaysOperationsWithReplaysHits() throws IOException, NoSuchAlgorithmException {
        Path lirs = Files.writeString(dir.resolve("small.lirs"), LIRS);
        Path out = dir.resolve("small.jsonl");
        CliRun r = arc("conform", lirs.toString(), "--format", "lirs", "--pages", "3", "-o", out.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = Files.readAllLines(out);
        long[] requests = TraceReader.read(lirs);
        assertEquals(1 + 2 * requests.length, lines.size(), "a tick and a read per request");
        assertTrue(lines.get(0).contains("\"trace\":\"lirs:small.lirs\",\"trace_sha256\":\""
                + sha256(LIRS.getBytes(StandardCharsets.UTF_8)) + "\""), lines.get(0));
        assertTrue(lines.get(0).contains("\"config\":{\"arc_c_min\":12288,\"arc_c_max\":12288,"
                + "\"spa_maxblocksize\":4096,"), lines.get(0));
        assertTrue(lines.get(1).startsWith("{\"index\":1,\"line\":2,\"op\":\"tick 1\","), lines.get(1));
        assertTrue(lines.get(2).startsWith("{\"index\":2,\"line\":3,\"op\":\"read 1 4096 demand\","), lines.get(2));
        long hits = lines.stream().filter(l -> l.contains("\"outcome\":\"HIT_")).count();
        assertEquals(Replay.hits(ZfsPageCache.zfs(3), requests), hits, "arc replay's zfs hits at 3 pages");
        assertTrue(hits > 0, "the sample has hits");
        CliRun verify = arc("verify", out.toString());
        assertEquals(0, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("matches the spec on lirs:small.lirs"), verify.out());
    }

    @Test
    void theConvertedOpTraceGivesTheSameOperationLines() throws IOException {
        Path lirs = Files.writeString(dir.resolve("small.lirs"), LIRS);
        CliRun printed = arc("conform", lirs.toString(), "--format", "lirs", "--pages", "3", "--set",
                "zfs_arc_evict_batch_limit=1", "--print-trace");
        assertEquals(0, printed.status(), printed.err());
        assertTrue(printed.out().startsWith("# conform: arc_c_min=12288 arc_c_max=12288 spa_maxblocksize=4096 "),
                printed.out());
        assertTrue(printed.out().contains(" zfs_arc_evict_batch_limit=1 "), printed.out());
        assertTrue(printed.out().contains("\ntick 1\nread 1 4096 demand\ntick 1\nread 2 4096 demand\n"));
        Path ops = Files.writeString(dir.resolve("small.ops"), printed.out());
        List<String> fromBlock = arc("conform", lirs.toString(), "--format", "lirs", "--pages", "3", "--set",
                "zfs_arc_evict_batch_limit=1").out().lines().toList();
        List<String> fromOps = arc("conform", ops.toString()).out().lines().toList();
        assertEquals(fromBlock.subList(1, fromBlock.size()), fromOps.subList(1, fromOps.size()));
        assertEquals(fromBlock.get(0).replaceAll("\"trace\":.*\"headers\"", ""),
                fromOps.get(0).replaceAll("\"trace\":.*\"headers\"", ""), "the headers differ in the trace only");
    }

    @Test
    void aGzipLisTraceExpandsEachLineToItsPages() throws IOException {
        Path lis = dir.resolve("small.lis.gz");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(lis))) {
            gz.write("10 3 0 1\n11 1 0 2\n".getBytes(StandardCharsets.UTF_8));
        }
        CliRun r = arc("conform", lis.toString(), "--format", "lis", "--pages", "2");
        assertEquals(0, r.status(), r.err());
        List<String> ops = r.out().lines().skip(1).filter(l -> l.contains("\"op\":\"read"))
                .map(l -> l.substring(l.indexOf("\"op\":"), l.indexOf(",\"outcome\""))).toList();
        assertEquals(List.of("\"op\":\"read 10 4096 demand\"", "\"op\":\"read 11 4096 demand\"",
                "\"op\":\"read 12 4096 demand\"", "\"op\":\"read 11 4096 demand\""), ops);
        assertTrue(r.out().lines().findFirst().orElseThrow().contains("\"trace\":\"lis:" + lis + "\""), r.out());
    }

    @Test
    void badBlockTraceArgumentsAreNamed() throws IOException {
        Path lirs = Files.writeString(dir.resolve("bad.lirs"), "1\n2\nx\n");
        assertBad(arc("conform", lirs.toString(), "--format", "lirs", "--pages", "4"), "arc: " + lirs + ":3: ");
        assertBad(arc("conform", lirs.toString(), "--format", "lirs"), "arc: --format lirs needs --pages N, the "
                + "cache's capacity in pages, was not given");
        assertBad(arc("conform", lirs.toString(), "--format", "lirs", "--pages", "1"), "arc: --pages must be >= 2, "
                + "was 1");
        assertBad(arc("conform", lirs.toString(), "--pages", "4"), "arc: --pages has no effect without --format (it "
                + "sizes the cache of a block trace), was given");
        assertBad(arc("conform", lirs.toString(), "--format", "arc", "--pages", "4"), "arc: format must be one of "
                + "lirs, lis, was \"arc\"");
        assertBad(arc("conform", "basic", "--format", "lirs", "--pages", "4"), "arc: trace file does not exist: "
                + "basic");
        Path empty = Files.writeString(dir.resolve("empty.lirs"), "*\n\n");
        assertBad(arc("conform", empty.toString(), "--format", "lirs", "--pages", "4"), "arc: trace file " + empty
                + " has no requests (no data lines); nothing to conform");
        assertBad(arc("conform", "--list", "--format", "lirs"), "arc: --format has no effect with --list, was given");
    }

    private static void assertBad(CliRun r, String messageStart) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
        assertTrue(r.err().startsWith(messageStart), r.err());
        assertEquals("", r.out());
    }

    @Test
    void helpShowsTheNewOptionsInExamples() {
        String help = arc("conform", "--help").out();
        assertTrue(help.contains("arc conform ghost-adaptation --print-trace | sha256sum"), help);
        assertTrue(help.contains("arc conform trace.lirs --format lirs --pages 100 -o expected.jsonl"), help);
    }
}
