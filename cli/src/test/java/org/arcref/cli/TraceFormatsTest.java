package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.arcref.cli.CliRun.arcWithStdin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.airlift.compress.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace formats of the field: libCacheSim csv and oracleGeneral, Twitter's cache traces and MSR
 * Cambridge block traces, each written here from its published description. The same page sequence in every format
 * replays to the same hit counts as LIRS; every bad line or record is one line naming the file, the line (or byte
 * offset), the rule and the value.
 */
class TraceFormatsTest {

    /** Pages with reuse at several distances; in each format, page p is one key or block. */
    private static final long[] PAGES = {0, 1, 2, 0, 3, 1, 4, 0, 2, 5, 1, 0, 6, 2, 3, 0, 1, 7, 0, 2, 4, 1, 0, 3};
    private static final String[] TWITTER_OPS = {"get", "set", "gets", "add", "cas", "append", "delete", "incr"};

    @TempDir
    Path dir;

    /** The hit-ratio JSON without the source and the speed, which differ between runs. */
    private static String hits(CliRun r) {
        assertEquals(ExitCode.SUCCESS, r.status(), r.err());
        return r.out().replaceAll("\"source\": \"[^\"]*\"", "").replaceAll("\"requestsPerSecond\":\\d+", "");
    }

    private static CliRun replay(Path trace, String... options) {
        List<String> args = new ArrayList<>(List.of("replay", trace.toString(), "--sizes", "2,4", "--json"));
        args.addAll(Arrays.asList(options));
        return arc(args.toArray(String[]::new));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    private static byte[] oracleGeneral(long[] ids) {
        ByteBuffer b = ByteBuffer.allocate(24 * ids.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < ids.length; i++) {
            b.putInt(i).putLong(ids[i]).putInt(4096).putLong(-1);
        }
        return b.array();
    }

    private static byte[] zstd(byte[] content) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStream z = new ZstdOutputStream(b)) {
            z.write(content);
        }
        return b.toByteArray();
    }

    @Test
    void everyFormatOfTheSamePagesGivesTheHitCountsOfLirs() throws IOException {
        StringBuilder lirs = new StringBuilder();
        StringBuilder csv = new StringBuilder("time;key;size\n");
        StringBuilder tabs = new StringBuilder();
        StringBuilder twitter = new StringBuilder();
        StringBuilder msr = new StringBuilder();
        for (int i = 0; i < PAGES.length; i++) {
            long p = PAGES[i];
            lirs.append(p).append('\n');
            csv.append(i).append(".5;obj-").append(p).append(';').append(100 * p).append('\n');
            tabs.append(p).append("\t").append(4096).append('\n');
            twitter.append(i).append(",key-").append(p).append(",5,").append(10 * p).append(",client7,")
                    .append(TWITTER_OPS[i % TWITTER_OPS.length]).append(",0\n");
            msr.append(128166372003061629L + i).append(",src1,2,").append(i % 2 == 0 ? "Read" : "Write").append(',')
                    .append(p * 8192).append(",8192,").append(300 + i).append('\n');
        }
        String expected = hits(replay(write("t.trace", lirs.toString())));
        assertTrue(expected.contains("\"requests\": 24"), expected);
        assertEquals(expected, hits(replay(write("t.csv", csv.toString()), "--format", "csv", "--obj-id-col", "2",
                "--obj-size-col", "3", "--time-col", "1", "--has-header", "--delimiter", ";")));
        assertEquals(expected, hits(replay(write("t.tsv", tabs.toString()), "--format", "csv", "--key-column", "1",
                "--size-column", "2", "--delimiter", "\\t")), "generic csv, tab-separated, numeric keys");
        assertEquals(expected, hits(replay(write("t.twitter", twitter.toString()))), "twitter, detected");
        assertEquals(expected, hits(replay(write("t.msr", msr.toString()), "--page-size", "8192")), "msr, detected");
        Path og = Files.write(dir.resolve("t.oracleGeneral"), oracleGeneral(PAGES));
        assertEquals(expected, hits(replay(og)), "oracleGeneral, told by its name");
        Path zst = Files.write(dir.resolve("t.oracleGeneral.zst"), zstd(oracleGeneral(PAGES)));
        assertEquals(expected, hits(replay(zst)), "oracleGeneral.zst");
        assertEquals(expected, hits(arcWithStdin(oracleGeneral(PAGES), "replay", "-", "--format", "oracleGeneral",
                "--sizes", "2,4", "--json")), "oracleGeneral from a pipe");
    }

    @Test
    void anMsrRequestStandsForEveryPageItTouchesAndDisksNeverShareAPage() throws IOException {
        Path t = write("disks.csv", "1,hm,0,Read,4095,2,9\n" // pages 0 and 1 of hm/0
                + "2,hm,1,Read,0,4096,9\n" // page 0 of hm/1: another disk
                + "3,web,0,Write,0,1,9\n" // page 0 of web/0: another host
                + "4,hm,0,Read,100,1,9\n"); // page 0 of hm/0 again
        String r = hits(replay(t));
        assertTrue(r.contains("\"requests\": 5,") && r.contains("\"uniquePages\": 4,"), r);
        String small = hits(replay(t, "--page-size", "512"));
        assertTrue(small.contains("\"requests\": 12,") && small.contains("\"uniquePages\": 12,"), small);
    }

    @Test
    void oracleGeneralIdsAreUsedAsTheyAreAllSixtyFourBits() throws IOException {
        long[] ids = {-1L, Long.MAX_VALUE, -1L, 1L << 63, Long.MAX_VALUE};
        String r = hits(replay(Files.write(dir.resolve("big.oracleGeneral"), oracleGeneral(ids)), "--policies",
                "lru"));
        assertTrue(r.contains("\"uniquePages\": 3,") && r.contains("\"pages\":4,\"hits\":2,"), r);
    }

    private void assertError(String expected, Path trace, String... options) {
        List<String> args = new ArrayList<>(List.of("replay", trace.toString()));
        args.addAll(Arrays.asList(options));
        CliRun r = arc(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out());
        assertEquals("arc: " + expected, r.err().strip());
    }

    @Test
    void everyBadLineOrRecordIsNamedWithItsRuleAndValue() throws IOException {
        Path tw = write("bad.twitter", "1,k,3,10,c,get,0\n2,k,3,10,c,fetch,0\n");
        assertError(tw + ":2: operation must be one of get, gets, set, add, replace, cas, append, prepend, delete, "
                + "incr, decr, was \"fetch\"", tw);
        Path tw2 = write("bad2.twitter", "1,k,3,10,c,get,0\n2,k,-3,10,c,get,0\n");
        assertError(tw2 + ":2: key size must be >= 0, was -3", tw2);
        Path msr = write("bad.msr", "1,h,0,Read,0,512,1\n2,h,0,Trim,0,512,1\n");
        assertError(msr + ":2: Type must be Read or Write, was \"Trim\"", msr);
        Path digits = write("digits.msr", "1,h,0,Read,\u0661\u0662,512,1\n");
        assertError(digits + ":1: Offset must be a non-negative decimal integer, was \"\u0661\u0662\"", digits);
        Path empty = write("empty.msr", "1,h,0,Read,0,0,1\n");
        assertError(empty + ":1: Size must be >= 1 byte, was 0", empty);
        Path csv = write("bad.csv", "a,1\nb\n");
        assertError(csv + ":2: expected at least 2 fields separated by \",\", got 1 in \"b\"", csv, "--format", "csv",
                "--obj-id-col", "1", "--obj-size-col", "2");
        Path size = write("size.csv", "a,1\nb,+2\n");
        assertError(size + ":2: the object size (column 2) must be a non-negative decimal integer, was \"+2\"", size,
                "--format", "csv", "--obj-id-col", "1", "--obj-size-col", "2");
        byte[] records = oracleGeneral(new long[] {1, 2});
        Path truncated = Files.write(dir.resolve("cut.bin"), Arrays.copyOf(records, 48 + 5));
        assertError(truncated + ": record 3 at byte offset 48: a truncated record: the content ends 5 bytes into it, "
                + "expected 24-byte records (clock_time, obj_id, obj_size, next_access_vtime)", truncated, "--format",
                "oraclegeneral");
    }

    @Test
    void formatsThatCannotBeToldMustBeNamedWithTheirOptions() throws IOException {
        Path kv = write("kv.csv", "a,1\n");
        Path words = write("two words", "a b\n");
        assertError(words + ":1: cannot tell the trace format: expected one block number (LIRS), at least 3 integer "
                + "fields (.lis), or 7 comma-separated fields with Read/Write 4th (MSR) or an operation 6th (Twitter); "
                + "name csv and oracleGeneral, got \"a b\"", words);
        assertError("--format csv needs --obj-id-col N (the column of the key, numbered from 1)", kv, "--format",
                "csv");
        assertError("--obj-size-col has no effect without --format csv, was given", kv, "--obj-size-col", "2");
        assertError("--obj-id-col, obj-size-col and time-col must be different columns, were 1, 1, none", kv,
                "--format", "csv", "--obj-id-col", "1", "--obj-size-col", "1");
        assertError("format must be one of lirs, lis, csv, twitter, msr, oracleGeneral, was \"parquet\"", kv,
                "--format", "parquet");
    }
}
