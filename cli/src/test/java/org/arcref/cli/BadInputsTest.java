package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A probe of bad inputs kept as a test: bad inputs across every subcommand, each of which must end with exit status 2
 * and exactly one line on standard error, {@code arc: ...}, that names what was wrong (the fragment of each case: the
 * option, the value or the file), with no stack trace and nothing on standard output.
 *
 * <p>A case is the command line with {@code @NAME} standing for a file of {@link #files} and {@code @DIR} for the
 * folder that holds them, and the fragment its one line must contain.
 */
class BadInputsTest {

    @TempDir
    static Path dir;

    /** The files the cases name. */
    @BeforeAll
    static void files() throws IOException {
        write("empty.trace", "");
        write("words.trace", "1\n2\nthree\n");
        write("arabic.trace", "1\n\u0661\u0662\n");
        write("plus.trace", "1\n+5\n");
        write("three.lis", "0 8 0\n");
        write("count0.lis", "0 0 0 1\n");
        write("negative.lis", "-4 8 0 1\n");
        Files.write(dir.resolve("binary.trace"), new byte[] {1, 0, 2, 0, 3, 0, '\n'});
        byte[] gz = gzip("1\n2\n3\n".repeat(1000));
        Files.write(dir.resolve("truncated.trace.gz"), Arrays.copyOf(gz, gz.length / 2));
        byte[] garbage = Arrays.copyOf(gz, gz.length + 3);
        garbage[gz.length] = 'x';
        Files.write(dir.resolve("garbage.trace.gz"), garbage);
        Files.write(dir.resolve("corrupt.trace.zst"), new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 9, 9, 9, 9});
        Files.write(dir.resolve("twice.trace.gz"), gzip(gz));
        byte[] zs = zstd("1\n2\n3\n".repeat(1000).getBytes(StandardCharsets.US_ASCII));
        Files.write(dir.resolve("zstd.trace.gz"), gzip(zs));
        Files.write(dir.resolve("gzip.trace.zst"), zstd(gz));
        // more content than the text check reads, so that the decoder has the rest to decode after the rejection
        byte[] marked = ("\ufeff" + "1\n2\n3\n".repeat(50_000)).getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("marked.trace.gz"), gzip(marked));
        Files.write(dir.resolve("marked.trace.zst"), zstd(marked));
        write("ops.ops", "read 1 512 demand\n");
        write("evict.ops", "read 1 512\nevict now\n");
        write("frob.ops", "frob 1\n");
        write("readx.ops", "read x 512\n");
        write("sideways.ops", "read 1 512 sideways\n");
        write("rejected.ops", "read 1 512\nread 1 1024\n");
        write("badset.ops", "# conform: nosuch=1\nread 1 512\n");
        write("comment.ops", "# nothing\n");
        write("twokinds.ops", "read 1 1K demand prefetch\n");
        write("twoholds.ops", "read 1 1K hold hold\n");
        write("twice.ops", "# conform: hz=100 hz=200\nread 1 512\n");
        write("block.lirs", "1\n2\n");
        write("notjson.jsonl", "this is not json\n");
        write("array.jsonl", "[1, 2]\n");
        write("plain.txt", "hello\n");
        Files.createDirectories(dir.resolve("sub"));
    }

    private static void write(String name, String text) throws IOException {
        Files.writeString(dir.resolve(name), text);
    }

    private static byte[] gzip(String text) throws IOException {
        return gzip(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(bytes)) {
            z.write(content);
        }
        return bytes.toByteArray();
    }

    private static byte[] zstd(byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(bytes)) {
            z.write(content);
        }
        return bytes.toByteArray();
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // replay
                bad("replay --sizes 1", "--sizes must all be >= 2, was 1"),
                bad("replay --sizes abc", "abc"),
                bad("replay --sizes -5", "-5"),
                bad("replay --sizes 99999999999", "99999999999"),
                bad("replay --sizes 2000000000", "--sizes"),
                bad("replay --repeat 0", "--repeat must be >= 1, was 0"),
                bad("replay --repeat -3", "--repeat must be >= 1, was -3"),
                bad("replay --concurrent 0", "--concurrent"),
                bad("replay --concurrent 100000", "--concurrent"),
                bad("replay --concurrent 2 --policies zfs", "--policies"),
                bad("replay --concurrent 2 --repeat 2", "--repeat"),
                bad("replay --policies foo", "foo"),
                bad("replay @block.lirs --format xyz", "xyz"),
                bad("replay @block.lirs --seed 1", "--seed"),
                bad("replay @block.lirs --length 10", "--length"),
                bad("replay --format lirs", "--format"),
                bad("replay --length 0", "--length"),
                bad("replay --length -1", "--length"),
                bad("replay --length abc", "abc"),
                bad("replay --length 2000000000", "--length"),
                bad("replay @missing.trace", "missing.trace"),
                bad("replay @sub", "sub"),
                bad("replay @empty.trace", "empty.trace"),
                bad("replay @words.trace", "words.trace:3"),
                bad("replay @arabic.trace", "arabic.trace:2"),
                bad("replay @plus.trace", "plus.trace:2"),
                bad("replay @three.lis --format lis", "three.lis:1"),
                bad("replay @count0.lis", "count0.lis:1"),
                bad("replay @negative.lis", "negative.lis:1"),
                bad("replay @binary.trace", "binary.trace"),
                bad("replay @truncated.trace.gz", "truncated.trace.gz"),
                bad("replay @corrupt.trace.zst", "zstd"),
                bad("replay @ops.ops", "ops.ops:1: cannot tell the trace format: "),
                bad("replay @ops.ops", "; this is an op trace (the ZFS spec's own format), which arc conform runs"),
                bad("replay basic", "trace file does not exist: basic (basic is a built-in conformance trace, which "
                        + "arc conform basic runs)"),
                bad("replay @block.lirs @block.lirs", "@block.lirs".substring(1)),
                bad("replay --size 100", "did you mean --sizes?"),
                bad("replay --sizes 10,", "without empty elements, was \"10,\""),
                bad("replay --sizes 100,100", "was \"100\" twice in \"100,100\""),
                bad("replay --sizes 3K", "was \"3K\" = 3072 bytes"),
                bad("replay --sizes 0%", "was \"0%\""),
                bad("replay --csv --json", "--csv and --json"),
                bad("replay @block.lirs --warmup 150%", "was \"150%\""),
                bad("replay @block.lirs --format csv", "--obj-id-col"),
                bad("replay @block.lirs --page-size 0", "--page-size"),
                bad("replay -o /proc/no-such-file", "/proc/no-such-file"),
                bad("replay --concurrent 2 --warmup 5", "--warmup"),
                bad("replay @garbage.trace.gz", "trailing garbage after the gzip data"),
                bad("replay @twice.trace.gz", "twice.trace.gz: the data is compressed twice (gzip data inside gzip "
                        + "data)"),
                bad("replay @zstd.trace.gz", "zstd.trace.gz: the data is compressed twice (zstd data inside gzip "
                        + "data)"),
                bad("replay @gzip.trace.zst", "gzip.trace.zst: the data is compressed twice (gzip data inside zstd "
                        + "data)"),
                bad("replay @marked.trace.gz", "marked.trace.gz:1: the file starts with a UTF-8 byte-order mark"),
                bad("replay @marked.trace.zst", "marked.trace.zst:1: the file starts with a UTF-8 byte-order mark"),
                bad("replay --frobnicate", "--frobnicate"),
                bad("replya", "did you mean replay?"),
                bad("--frobnicate", "--frobnicate"),
                bad("help frob", "frob"),
                // conform
                bad("conform", "TRACE is required"),
                bad("conform nosuchbuiltin", "nosuchbuiltin"),
                bad("conform basic --set foo=1", "foo"),
                bad("conform basic --set arc_c_mx=1", "did you mean arc_c_max?"),
                bad("conform basic --set arc_c_max=abc", "abc"),
                bad("conform basic --set arc_c_max", "arc_c_max"),
                bad("conform basic --set arc_c_max=18446744073709551616", "18446744073709551616"),
                bad("conform basic --set arc_c_max=-1", "-1"),
                bad("conform basic --set zfs_abd_scatter_enabled=2", "2"),
                bad("conform basic --set hz=\u0661", "hz"),
                bad("conform basic --fix NOPE", "NOPE"),
                bad("conform basic --json", "--json"),
                bad("conform --list basic", "--list"),
                bad("conform --list --set hz=100", "--set"),
                bad("conform basic --pages 10", "--pages"),
                bad("conform @block.lirs --format lirs", "--pages"),
                bad("conform @block.lirs --format lirs --pages 1", "--pages must be >= 2, was 1"),
                bad("conform @block.lirs --format nope --pages 4", "nope"),
                bad("conform basic --print-trace --fix ADAPT_MULTIPLY", "--fix"),
                bad("conform basic --print-trace --headers", "--headers"),
                bad("conform @evict.ops", "evict.ops:2"),
                bad("conform @frob.ops", "frob.ops:1"),
                bad("conform @readx.ops", "readx.ops:1"),
                bad("conform @sideways.ops", "sideways.ops:1"),
                bad("conform @rejected.ops -o @rejected.jsonl", "rejected.ops:2: the spec rejects"),
                bad("conform @badset.ops", "badset.ops:1"),
                bad("conform @comment.ops", "no operations"),
                bad("conform @twokinds.ops", "twokinds.ops:1: read takes at most one of demand, prefetch and "
                        + "prescient, at most one hold and at most one meta, got \"demand prefetch\""),
                bad("conform @twoholds.ops", "twoholds.ops:1"),
                bad("conform @twice.ops", "twice.ops:1: a setting may be given once on a '# conform:' line, hz was "
                        + "given twice"),
                bad("conform @missing.ops", "missing.ops"),
                bad("conform basic -o @sub", "@sub".substring(1)),
                bad("conform basic -o /proc/self/no-such-file", "/proc/self/no-such-file"),
                bad("conform basic -o @nofolder/out.jsonl", "nofolder"),
                bad("conform @ops.ops -o @ops.ops", "must not be an input file"),
                // verify
                bad("verify", "EXPECTED"),
                bad("verify @missing.jsonl", "missing.jsonl"),
                bad("verify - -", "standard input"),
                bad("verify @notjson.jsonl @notjson.jsonl", "notjson.jsonl:1"),
                bad("verify @array.jsonl @array.jsonl", "array.jsonl:1"),
                bad("verify @empty.trace @empty.trace", "empty.trace"),
                bad("verify @plain.txt", "plain.txt:1"),
                bad("verify @sub @sub", "sub"),
                bad("verify @notjson.jsonl @notjson.jsonl --max 0", "--max"),
                bad("verify @notjson.jsonl @notjson.jsonl --context -1", "--context"),
                bad("verify @notjson.jsonl @notjson.jsonl --ignore a --only b", "--only"),
                bad("verify @notjson.jsonl @notjson.jsonl --json --context 3", "--context"),
                bad("verify @notjson.jsonl @notjson.jsonl --ignore nonsense.field", "nonsense.field"),
                // explore
                bad("explore --tries 0", "--tries must be >= 1, was 0"),
                bad("explore --tries -2", "--tries"),
                bad("explore --shard 2/2 --tries 1", "--shard must be i/n with 0 <= i < n, was 2/2"),
                bad("explore --shard x --tries 1", "x"),
                bad("explore --duration soon", "soon"),
                bad("explore --checks nope", "nope"),
                bad("explore --trace @ops.ops", "--check"),
                bad("explore --trace @ops.ops --check invariants", "--try-seed"),
                bad("explore --trace @missing.ops --check invariants --try-seed 1", "missing.ops"),
                bad("explore --trace @rejected.ops --check invariants --try-seed 1", "operation 2"),
                bad("explore --trace @ops.ops --check canonical --try-seed 1", "operation 1"),
                bad("explore --trace @comment.ops --check invariants --try-seed 1", "no operations"),
                bad("explore --out @nofolder --tries 1", "nofolder"),
                bad("explore --out @ops.ops --tries 1", "ops.ops"),
                bad("explore --exhaustive --depth 2000", "--depth"),
                bad("explore --exhaustive --keys 0", "--keys"),
                bad("explore --exhaustive --tries 5", "--tries"),
                bad("explore --exhaustive --c-min-blocks 4 --c-max-blocks 2", "--c-max-blocks"),
                // soak
                bad("soak --threads 0", "--threads"),
                bad("soak --c-min-kib 1", "--c-min-kib"),
                bad("soak --c-min-kib 64 --c-max-kib 32", "--c-max-kib"),
                bad("soak --duration x", "x"),
                // gen
                bad("gen --ops 0", "--ops must be in [1, 1000000], was 0"),
                bad("gen --keys 1001", "--keys"),
                bad("gen --count 0 -o @DIR", "--count must be in [1, 100000], was 0"),
                bad("gen --count 2", "--count needs -o DIR"),
                bad("gen --count 2 -o @nofolder", "nofolder"),
                bad("gen --count 2 -o /proc", "/proc"),
                bad("gen -o @nofolder/t.ops", "nofolder"),
                bad("gen --set foo=1", "foo"),
                bad("gen --seed abc", "abc"),
                // report
                bad("report --out @sub", "a directory"),
                bad("report --out @nofolder/r.html", "nofolder"),
                bad("report --out /proc/r.html", "/proc/r.html"),
                bad("report --out - --json", "--json"),
                bad("report @words.trace --out -", "words.trace:3"),
                bad("report --sizes 1 --out -", "--sizes"));
    }

    private static Arguments bad(String commandLine, String fragment) {
        return Arguments.of(commandLine, fragment);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isExitStatus2WithOneLineNamingIt(String commandLine, String fragment) {
        String[] args = Arrays.stream(commandLine.split(" ")).map(a -> a.equals("@DIR") ? dir.toString()
                : a.startsWith("@") ? dir.resolve(a.substring(1)).toString() : a).toArray(String[]::new);
        CliRun r = CliRun.arc(args);
        List<String> err = r.err().lines().toList();
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertEquals(1, err.size(), "one line on stderr: " + r.err());
        assertTrue(err.get(0).startsWith("arc: "), r.err());
        assertTrue(err.get(0).contains(fragment), "names " + fragment + ": " + r.err());
        assertEquals("", r.out(), "nothing on stdout");
    }

    @Test
    void anOutputFileOfATraceTheSpecRejectsIsDeleted() {
        Path out = dir.resolve("deleted.jsonl");
        CliRun r = CliRun.arc("conform", dir.resolve("rejected.ops").toString(), "-o", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.err());
        assertFalse(Files.exists(out), "an incomplete output is not left behind");
    }

    @Test
    void thereAreAtLeastAHundredCases() {
        assertTrue(cases().count() >= 100, "cases: " + cases().count());
    }
}
