package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.arcref.cli.ArcCommand;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code arc explore --checks oracle}: runs, reports its tries, and without a usable binary is bad usage. */
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
