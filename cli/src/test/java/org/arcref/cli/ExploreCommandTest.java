package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.arcref.arc.BrokenArcs;
import org.arcref.explore.Checker;
import org.arcref.trace.OpTraceReader;
import org.arcref.zfs.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code arc explore} end to end: reproducible tries, shards, a real bug caught and shrunk, usage errors. */
class ExploreCommandTest {

    private static final Pattern SUMMARY = Pattern.compile(
            "arc explore: seed (-?\\d+), shard (\\d+/\\d+), (\\d+) tries \\(invariants (\\d+), differential (\\d+), "
                    + "canonical (\\d+)\\): (.*), [\\d.]+ s");

    @TempDir
    Path dir;

    private static long[] counts(CliRun r) {
        Matcher m = SUMMARY.matcher(r.out().strip());
        assertTrue(m.matches(), r.out());
        return new long[] {Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
                Long.parseLong(m.group(6))};
    }

    @Test
    void theSameSeedRunsTheSameTriesAndShardsSplitThem() {
        CliRun all = CliRun.arc("explore", "--tries", "90", "--seed", "5", "--out", dir.toString());
        CliRun again = CliRun.arc("explore", "--tries", "90", "--seed", "5", "--out", dir.toString());
        CliRun shard0 = CliRun.arc("explore", "--tries", "90", "--seed", "5", "--shard", "0/2", "--out",
                dir.toString());
        CliRun shard1 = CliRun.arc("explore", "--tries", "90", "--seed", "5", "--shard", "1/2", "--out",
                dir.toString());
        for (CliRun r : List.of(all, again, shard0, shard1)) {
            assertEquals(0, r.status(), r.err());
            assertTrue(r.out().contains("no failure"), r.out());
        }
        long[] a = counts(all);
        assertEquals(90, a[0]);
        assertTrue(a[1] > 0 && a[2] > 0 && a[3] > 0, "every check runs: " + all.out());
        assertEquals(List.of(a[1], a[2], a[3]), List.of(counts(again)[1], counts(again)[2], counts(again)[3]));
        long[] s0 = counts(shard0);
        long[] s1 = counts(shard1);
        assertEquals(45, s0[0]);
        assertEquals(45, s1[0]);
        for (int i = 1; i < 4; i++) {
            assertEquals(a[i], s0[i] + s1[i], "the shards split the same tries per check");
        }
    }

    /**
     * A real bug: the concurrent ARC whose waiter count lacks {@code MAX} (#11285). The differential must catch it,
     * exit 3, and write a shrunk trace that fails again on the broken variant and passes on the real one.
     */
    @Test
    void findsShrinksAndReproducesTheWaiterCountWithoutMax() throws IOException {
        Checker broken = new Checker(BrokenArcs::waiterCountWithoutMax);
        CliRun r = CliRun.command(new ExploreCommand(broken), "--checks", "differential", "--tries", "2000",
                "--seed", "1", "--out", dir.toString());
        assertEquals(ExitCode.FINDING, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("FAILED (differential)"), r.out());
        Matcher m = Pattern.compile("try seed (-?\\d+)\\).*shrunk (\\d+) -> (\\d+) operations.*trace: (\\S+)",
                Pattern.DOTALL).matcher(r.err());
        assertTrue(m.find(), r.err());
        Path trace = Path.of(m.group(4));
        assertTrue(trace.getFileName().toString().contains("seed1"), trace.toString());
        List<Operation> shrunk = OpTraceReader.read(trace);
        int original = Integer.parseInt(m.group(2));
        assertEquals(Integer.parseInt(m.group(3)), shrunk.size());
        assertTrue(shrunk.size() < original && shrunk.size() <= 20, "shrunk to " + shrunk.size() + " of " + original);
        System.out.println("explore caught #11285: shrunk " + original + " -> " + shrunk.size() + " operations:\n"
                + Files.readString(trace));

        String[] replay = {"--check", "differential", "--try-seed", m.group(1), "--trace", trace.toString()};
        CliRun again = CliRun.command(new ExploreCommand(broken), replay);
        assertEquals(ExitCode.FINDING, again.status(), again.out());
        assertTrue(again.out().contains("FAILED: D1"), again.out());
        String[] withArc = new String[replay.length + 1];
        withArc[0] = "explore";
        System.arraycopy(replay, 0, withArc, 1, replay.length);
        CliRun real = CliRun.arc(withArc);
        assertEquals(0, real.status(), real.out() + real.err());
        assertTrue(real.out().endsWith("passed" + System.lineSeparator()), real.out());
    }

    @Test
    void aBadTraceLineNamesFileAndLine() throws IOException {
        Path trace = dir.resolve("bad.trace");
        Files.writeString(trace, "read 1 512\nevict now\n");
        CliRun r = CliRun.arc("explore", "--check", "invariants", "--try-seed", "1", "--trace", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + trace + ":2: too many fields for evict: expected at most 0 arguments, got 1",
                r.err().strip());
        Files.writeString(trace, "read 1 512\nread 1 1024\n");
        CliRun invalid = CliRun.arc("explore", "--check", "invariants", "--try-seed", "1", "--trace",
                trace.toString());
        assertEquals(ExitCode.BAD_INPUT, invalid.status(), "the spec rejects a size that differs from the cached one");
        assertEquals("", invalid.out());
        assertEquals("arc: trace file " + trace + ": operation 2 (\"read 1 1024 demand\"): the spec rejects it: size "
                + "must equal the cached size 512 of key 1, was 1024; nothing checked (--check invariants)",
                invalid.err().strip());
        CliRun canonical = CliRun.arc("explore", "--check", "canonical", "--try-seed", "1", "--trace",
                trace.toString());
        assertEquals(ExitCode.BAD_INPUT, canonical.status());
        assertEquals("arc: trace file " + trace + ": operation 1 (\"read 1 512 demand\"): the canonical check takes "
                + "only tick and demand reads of one 4096-byte page without hold, of keys in [0, 2^20); nothing "
                + "checked (--check canonical)", canonical.err().strip());
    }

    @Test
    void badArgumentsAreOneLineErrors() {
        CliRun shard = CliRun.arc("explore", "--shard", "2/2", "--tries", "1");
        assertEquals(ExitCode.BAD_INPUT, shard.status());
        assertEquals("arc: --shard must be i/n with 0 <= i < n, was 2/2", shard.err().strip());
        CliRun duration = CliRun.arc("explore", "--duration", "soon");
        assertEquals(ExitCode.BAD_INPUT, duration.status());
        assertTrue(duration.err().startsWith("arc: Invalid value for option '--duration': must be a positive"),
                duration.err());
        CliRun alone = CliRun.arc("explore", "--try-seed", "3");
        assertEquals(ExitCode.BAD_INPUT, alone.status());
        assertEquals("arc: --try-seed has no effect without --trace, was given", alone.err().strip());
        CliRun noSeed = CliRun.arc("explore", "--check", "invariants", "--trace", "t.trace");
        assertEquals(ExitCode.BAD_INPUT, noSeed.status());
        assertEquals("arc: --trace needs --check and --try-seed (printed with the failure), was without --try-seed",
                noSeed.err().strip());
        CliRun help = CliRun.arc("explore", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().contains("Examples:") && help.out().contains("--shard"), help.out());
    }
}
