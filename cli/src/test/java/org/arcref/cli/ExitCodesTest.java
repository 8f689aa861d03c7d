package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One exit-code scheme ({@link ExitCode}): bad usage and bad input are 2 in every subcommand, never the
 * 1 of a finding; {@code arc help} works; unknown subcommands, empty inputs and options without effect are errors;
 * an error echoes at most {@value org.arcref.trace.Excerpt#MAX_CHARS} characters of its input.
 */
class ExitCodesTest {

    @TempDir
    Path dir;

    private static void assertBadInput(CliRun r, String message) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertEquals(message, r.err().strip());
    }

    @Test
    void helpListsTheExitStatusesAndHelpIsASubcommand() {
        CliRun help = arc("--help");
        assertEquals(ExitCode.SUCCESS, help.status());
        for (String line : ExitCode.TABLE.split("%n")) {
            assertTrue(help.out().contains(line), line + " in " + help.out());
        }
        CliRun sub = arc("help", "explore");
        assertEquals(ExitCode.SUCCESS, sub.status(), sub.err());
        assertTrue(sub.out().startsWith("Usage: arc explore"), sub.out());
        assertTrue(arc("help").out().startsWith("Usage: arc "));
    }

    /** A help example wrapped mid-command cannot be pasted: every line of an Examples block is one command. */
    @Test
    void helpExamplesAreOneCommandALine() {
        for (String command : List.of("", "replay", "conform", "verify", "explore", "soak", "report")) {
            CliRun help = command.isEmpty() ? arc("--help") : arc(command, "--help");
            boolean inExamples = false;
            for (String line : help.out().lines().toList()) {
                if (line.equals("Examples:")) {
                    inExamples = true;
                } else if (line.isBlank()) {
                    inExamples = false;
                } else if (inExamples) {
                    assertTrue(line.matches("  (arc|mkdir|zcat|my-port)( .*)?"), "arc " + command + " --help: " + line);
                }
            }
        }
    }

    @Test
    void anUnknownSubcommandSaysSo() {
        assertBadInput(arc("replya"), "arc: unknown subcommand \"replya\"; the subcommands are replay, conform, "
                + "verify, gen, explore, soak, report, help; did you mean replay? (try 'arc --help')");
        assertBadInput(arc("replay", "--size", "100"), "arc: Unknown option: '--size'; did you mean --sizes? (try "
                + "'arc replay --help')");
        assertBadInput(arc("conform", "basic", "--set", "arc_c_mx=1"), "arc: --set: setting must be one of "
                + String.join(", ", java.util.Arrays.stream(org.arcref.conformance.Setting.values())
                        .map(org.arcref.conformance.Setting::zfsName).toList())
                + ", was \"arc_c_mx\"; did you mean arc_c_max?");
    }

    @Test
    void emptyInputsAreErrorsNotSilentSuccesses() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.trace"), "\n*\n");
        assertBadInput(arc("replay", empty.toString()), "arc: trace file " + empty
                + " has no requests (no data lines); nothing to replay");
        Path noOps = Files.writeString(dir.resolve("empty.ops"), "# only a comment\n");
        assertBadInput(arc("conform", noOps.toString()), "arc: trace " + noOps + " has no operations; nothing to "
                + "conform");
        assertBadInput(arc("explore", "--trace", noOps.toString(), "--check", "invariants", "--try-seed", "1"),
                "arc: trace file " + noOps + " has no operations; nothing to check");
        assertBadInput(arc("explore", "--shard", "5/8", "--tries", "3", "--out", dir.toString()),
                "arc: --shard 5/8 has no tries of --tries 3 (a shard i/n runs the tries t < 3 with t % n == i)");
    }

    @Test
    void optionsWithoutEffectAreRejected() throws IOException {
        Path trace = Files.writeString(dir.resolve("t.trace"), "1\n2\n");
        assertBadInput(arc("replay", trace.toString(), "--seed", "3"),
                "arc: --seed has no effect with a TRACE (it shapes the synthetic workload), was given");
        assertBadInput(arc("replay", "--format", "lis", "--length", "10"),
                "arc: --format has no effect without a TRACE (the synthetic workload has no format), was given");
        assertBadInput(arc("replay", "--concurrent", "2", "--repeat", "3", "--length", "10"),
                "arc: --repeat has no effect with --concurrent (it replays the concurrent ARC once), was given");
        assertBadInput(arc("conform", "--list", "--headers"), "arc: --headers has no effect with --list, was given");
        assertBadInput(arc("conform", "basic", "--json"),
                "arc: --json has no effect without --coverage (the output is JSON Lines already), was given");
        assertBadInput(arc("explore", "--trace", trace.toString(), "--check", "invariants", "--try-seed", "1",
                "--tries", "5"), "arc: --tries has no effect with --trace (it replays one trace, not random tries), "
                + "was given");
    }

    @Test
    void anErrorEchoesAtMostAHundredCharactersOfTheInput() throws IOException {
        Path trace = Files.writeString(dir.resolve("long.trace"), "x".repeat(100_000) + "\u0007\n");
        CliRun r = arc("replay", trace.toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: " + trace + ":1: expected a block number, got \"" + "x".repeat(100)
                + "\"... (100001 characters)", r.err().strip());
        CliRun shard = arc("explore", "--shard", "y".repeat(5000));
        assertEquals(ExitCode.BAD_INPUT, shard.status());
        assertTrue(shard.err().length() < 300, shard.err());
    }

    @Test
    void outputPathsAreCheckedBeforeTheWork() throws IOException {
        Path trace = Files.writeString(dir.resolve("t.trace"), "1\n2\n");
        assertBadInput(arc("report", trace.toString(), "--out", trace.toString()),
                "arc: --out must not be an input file (it would be overwritten), was " + trace);
        assertEquals("1\n2\n", Files.readString(trace));
        assertBadInput(arc("conform", "basic", "-o", dir.resolve("no/such/x.jsonl").toString()),
                "arc: -o/--output: the folder must exist, was " + dir.resolve("no/such"));
    }
}
