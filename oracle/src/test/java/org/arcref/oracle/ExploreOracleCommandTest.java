package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.arcref.cli.ArcCommand;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code arc explore --checks oracle}: runs, reports its tries, follows the release of {@code --zfs} (its engine,
 * fixes and default binary), and without a usable binary is bad usage.
 */
class ExploreOracleCommandTest {

    private record Run(int status, String out, String err) {
    }

    private static Run arc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ArcCommand.run(args, new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true),
                new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void theOracleCheckRunsItsTries(@TempDir Path dir) {
        Run r = arc("explore", "--checks", "oracle", "--oracle", Oracles.released(ZfsRelease.V2_1_1).toString(), "--tries", "60",
                "--seed", "5", "--out", dir.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\"triesByCheck\":{\"oracle\":60}"), r.out());
    }

    /**
     * {@code --zfs 2.1.16} makes the spec follow 2.1.16, which its own arc.c agrees with; against 2.1.1's arc.c the
     * same run finds a divergence (exit 1): the release the spec follows is the one the header says.
     */
    @Test
    void theSpecFollowsTheReleaseOfZfs(@TempDir Path dir) {
        Run agrees = arc("explore", "--checks", "oracle", "--zfs", "2.1.16", "--oracle",
                Oracles.released(ZfsRelease.V2_1_16).toString(), "--tries", "30", "--seed", "5", "--out",
                dir.toString());
        assertEquals(0, agrees.status(), agrees.err());
        Run mismatched = arc("explore", "--checks", "oracle", "--zfs", "2.1.16", "--oracle",
                Oracles.released(ZfsRelease.V2_1_1).toString(), "--tries", "30", "--seed", "5", "--out",
                dir.toString());
        assertEquals(1, mismatched.status(), mismatched.err());
    }

    /**
     * {@code --zfs 2.2.0} runs zfs-2.2.0's engine on that engine's tries, which 2.2.0's arc.c agrees with; the spec
     * following 2.2.11 against 2.2.0's arc.c finds a divergence (exit 1) and writes a trace that the command it
     * names replays to the same finding.
     */
    @Test
    void theOracleCheckOfZfs22RunsThatEnginesTries(@TempDir Path dir) throws IOException {
        String oracle220 = Oracles.released(ZfsRelease.V2_2_0).toString();
        Run agrees = arc("explore", "--checks", "oracle", "--zfs", "2.2.0", "--oracle", oracle220, "--tries", "30",
                "--seed", "5", "--out", dir.toString(), "--json");
        assertEquals(0, agrees.status(), agrees.err());
        assertTrue(agrees.out().contains("\"triesByCheck\":{\"oracle\":30}"), agrees.out());
        Run mismatched = arc("explore", "--checks", "oracle", "--zfs", "2.2.11", "--oracle", oracle220, "--tries",
                "30", "--seed", "5", "--out", dir.toString());
        assertEquals(1, mismatched.status(), mismatched.err());
        Matcher m = Pattern.compile(
                "reproduce with: arc explore --check oracle --zfs 2\\.2\\.11 --try-seed (-?[0-9]+) --trace (\\S+)")
                .matcher(mismatched.err());
        assertTrue(m.find(), mismatched.err());
        assertTrue(Files.readString(Path.of(m.group(2))).contains("# conform: "), "the trace names "
                + "its settings");
        Run replay = arc("explore", "--check", "oracle", "--zfs", "2.2.11", "--oracle", oracle220, "--try-seed",
                m.group(1), "--trace", m.group(2));
        assertEquals(1, replay.status(), replay.out() + replay.err());
        assertTrue(replay.out().contains("FAILED: G1 violated: oracle: "), replay.out());
    }

    @Test
    void theDefaultBinaryIsThatOfTheReleaseOfZfs() {
        Run r = arc("explore", "--checks", "oracle", "--zfs", "2.2.0", "--tries", "1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("the oracle binary must be an executable file, was oracle/target/arc-oracle-2.2.0"),
                r.err());
    }

    @Test
    void aMissingBinaryIsBadUsageNamingIt(@TempDir Path dir) {
        Run r = arc("explore", "--checks", "oracle", "--oracle", dir.resolve("nothing").toString(), "--tries", "1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("the oracle binary must be an executable file, was " + dir.resolve("nothing")),
                r.err());
    }

    @Test
    void oracleIsNoDefaultCheckAndTheOptionNeedsIt() {
        Run r = arc("explore", "--oracle", Oracles.released(ZfsRelease.V2_1_1).toString(), "--tries", "1");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--oracle"), r.err());
    }
}
