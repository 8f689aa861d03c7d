package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The options of {@code arc replay} around its inputs and outputs: {@code --sizes} in pages, bytes and
 * percentages (empty and repeated elements refused), {@code --csv}, {@code -o}, {@code --warmup}; and inputs that
 * used to be misread: gzip with trailing garbage, corrupt gzip read as a bad line, files without a size.
 */
class ReplayOptionsTest {

    @TempDir
    Path dir;

    /** 100 distinct pages, each requested twice. */
    private Path hundredPages() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int round = 0; round < 2; round++) {
            for (int p = 0; p < 100; p++) {
                sb.append(p).append('\n');
            }
        }
        return Files.writeString(dir.resolve("hundred.trace"), sb.toString());
    }

    private static void assertError(String expected, CliRun r) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out());
        assertEquals("", r.out());
        assertEquals("arc: " + expected, r.err().strip());
    }

    /** The pages column of a --csv table. */
    private static List<String> pagesColumn(CliRun r) {
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        return r.out().lines().skip(1).map(line -> line.split(",")[1]).toList();
    }

    @Test
    void sizesArePagesBytesOrPercentagesOfTheUniquePages() throws IOException {
        String t = hundredPages().toString();
        assertEquals(List.of("2", "10", "4", "5"), pagesColumn(arc("replay", t, "--policies", "lru", "--csv",
                "--sizes", "8K,10%,4,5%")));
        assertEquals(List.of("3"), pagesColumn(arc("replay", t, "--policies", "lru", "--csv", "--sizes", "3k",
                "--page-size", "1024")));
        assertError("--sizes in bytes must be whole pages of --page-size 4096, was \"3K\" = 3072 bytes",
                arc("replay", t, "--sizes", "3K"));
        assertError("--sizes must all be >= 2, was 4K = 1 pages", arc("replay", t, "--sizes", "4K"));
        assertError("--sizes must be a comma-separated list without empty elements, was \"10,\"",
                arc("replay", t, "--sizes", "10,"));
        assertError("--sizes must not repeat a size (it would be replayed twice), was \"100\" twice in \"100,100\"",
                arc("replay", t, "--sizes", "100,100"));
        assertError("--sizes must not repeat a size (it would be replayed twice), was \"1%\" and \"2\", both 2 pages "
                + "of a workload of 100 unique pages", arc("replay", t, "--sizes", "1%,2"));
        assertError("--sizes elements must be pages (250), bytes with K, M or G (64M) or a percentage of the unique "
                + "pages (1%), was \"ten\"", arc("replay", t, "--sizes", "ten"));
    }

    @Test
    void csvHasOneMachineReadableRowPerPolicyAndSizeWithTheHitsOfJson() throws IOException {
        String t = hundredPages().toString();
        CliRun csv = arc("replay", t, "--sizes", "50,120", "--csv");
        assertEquals(ExitCode.SUCCESS, csv.status(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertEquals("policy,pages,requests,warmup_requests,hits,hit_ratio_percent,requests_per_second", lines.get(0));
        assertEquals(1 + 2 * 4, lines.size(), "four policies at two sizes: " + csv.out());
        assertTrue(lines.contains("lru,120,200,0,100,50.0000," + lines.get(8).split(",")[6]), csv.out());
        assertTrue(lines.get(1).matches("zfs,50,200,0,\\d+,\\d+\\.\\d{4},\\d+"), lines.get(1));
        assertTrue(lines.get(2).matches("zfs22,50,200,0,\\d+,\\d+\\.\\d{4},\\d+"), lines.get(2));
        assertError("--csv and --json cannot both be given: the results are printed once",
                arc("replay", t, "--csv", "--json"));
    }

    @Test
    void outputGoesToTheFileAndItsTargetIsCheckedBeforeTheTraceIsRead() throws IOException {
        String t = hundredPages().toString();
        Path file = dir.resolve("out.csv");
        CliRun toFile = arc("replay", t, "--sizes", "120", "--policies", "lru", "--csv", "-o", file.toString());
        assertEquals(ExitCode.SUCCESS, toFile.status(), toFile.err());
        assertEquals("", toFile.out());
        assertTrue(Files.readString(file).startsWith("policy,pages,"), Files.readString(file));
        CliRun dash = arc("replay", t, "--sizes", "120", "--policies", "lru", "--csv", "-o", "-");
        assertTrue(dash.out().startsWith("policy,pages,"), dash.out());
        Path missing = dir.resolve("missing.trace");
        assertError("-o/--output: the folder must exist, was " + dir.resolve("no"),
                arc("replay", missing.toString(), "-o", dir.resolve("no/out.txt").toString()));
        assertError("-o/--output must not be an input file (it would be overwritten), was " + t,
                arc("replay", t, "-o", t));
        assertTrue(Files.readString(Path.of(t)).startsWith("0\n1\n"));
        if (Files.isWritable(Path.of("/dev/full"))) {
            assertError("cannot write -o/--output /dev/full: No space left on device",
                    arc("replay", t, "--sizes", "120", "-o", "/dev/full"));
        }
    }

    @Test
    void warmupRequestsFillTheCacheButAreNotCounted() throws IOException {
        Path t = Files.writeString(dir.resolve("ab.trace"), "1\n2\n1\n2\n1\n2\n");
        CliRun all = arc("replay", t.toString(), "--sizes", "2", "--policies", "lru", "--csv");
        assertEquals(List.of("lru,2,6,0,4,66.6667"), all.out().lines().skip(1).map(l -> l.replaceAll(",\\d+$", ""))
                .toList());
        CliRun warm = arc("replay", t.toString(), "--sizes", "2", "--policies", "lru", "--json", "--warmup", "2");
        assertEquals(ExitCode.SUCCESS, warm.status(), warm.err());
        assertTrue(warm.out().contains("\"warmupRequests\": 2,\n  \"countedRequests\": 4,"), warm.out());
        assertTrue(warm.out().contains("\"hits\":4,\"hitRatioPercent\":100.0000"), warm.out());
        CliRun half = arc("replay", t.toString(), "--sizes", "2", "--policies", "lru", "--warmup", "50%");
        assertTrue(half.out().contains("warm-up: the first 3 requests fill the cache, not counted; hit ratios count "
                + "the other 3\n"), half.out());
        assertTrue(half.out().contains("       2      100.00\n"), half.out());
        assertError("--warmup must leave requests to count: at most 5 of the workload's 6 requests, was 6",
                arc("replay", t.toString(), "--warmup", "6"));
        assertError("--warmup must be a number of requests (10000) or a percentage of them below 100% (10%), was "
                + "\"100%\"", arc("replay", t.toString(), "--warmup", "100%"));
        assertError("--warmup has no effect with --concurrent (it replays the concurrent ARC once), was given",
                arc("replay", t.toString(), "--warmup", "2", "--concurrent", "2"));
    }

    private static byte[] gzip(byte[] content, int level) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(b) {
            {
                def.setLevel(level);
            }
        }) {
            z.write(content);
        }
        return b.toByteArray();
    }

    @Test
    void gzipWithTrailingGarbageIsRefusedAndConcatenatedMembersAreRead() throws IOException {
        byte[] member = gzip("1\n2\n1\n".getBytes(StandardCharsets.US_ASCII), Deflater.DEFAULT_COMPRESSION);
        Path garbage = dir.resolve("garbage.gz");
        Files.write(garbage, concat(member, "trailing text\n".getBytes(StandardCharsets.US_ASCII)));
        assertError("cannot read trace file " + garbage + ": trailing garbage after the gzip data, at byte offset "
                + member.length, arc("replay", garbage.toString()));
        Path two = Files.write(dir.resolve("two.gz"), concat(member, member));
        CliRun r = arc("replay", two.toString(), "--sizes", "2", "--json");
        assertTrue(r.out().contains("\"requests\": 6,"), r.out() + r.err());
    }

    /** The bug: a stored (uncompressed) block decodes corrupt bytes as they are, and the bad line was reported. */
    @Test
    void corruptGzipIsReportedAsCorruptDataNotAsABadLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            sb.append(i).append('\n');
        }
        byte[] gz = gzip(sb.toString().getBytes(StandardCharsets.US_ASCII), Deflater.NO_COMPRESSION);
        int at = gz.length / 2;
        while (gz[at] < '0' || gz[at] > '9') {
            at++;
        }
        gz[at] = 'x';
        Path corrupt = Files.write(dir.resolve("corrupt.gz"), gz);
        assertError("cannot read trace file " + corrupt + ": corrupt gzip data (CRC-32 or length mismatch: the data "
                + "decodes to other bytes than were compressed)", arc("replay", corrupt.toString()));
    }

    /** The bug: available() of a /proc file fails with EINVAL, reported as an I/O error. */
    @Test
    void aFileWithoutASizeIsReadAndGetsTheFormatError() {
        Path status = Path.of("/proc/self/status");
        if (Files.isReadable(status)) {
            CliRun r = arc("replay", status.toString());
            assertEquals(ExitCode.BAD_INPUT, r.status());
            assertTrue(r.err().startsWith("arc: /proc/self/status:1: cannot tell the trace format"), r.err());
            assertFalse(r.err().contains("Invalid argument"), r.err());
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
