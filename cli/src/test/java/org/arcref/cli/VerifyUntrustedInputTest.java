package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.arcref.cli.CliRun.arcWithStdin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A conformance output given to {@code arc verify} is untrusted input (a port's
 * output uploaded to CI). A header's trace path is followed only inside the output's folder, and a file outside it
 * is never read, so its content cannot reach the log; {@code --trace} names the trace instead; every printed value
 * is escaped and cut; numbers are bounded; and each error is one line naming the file and line, with exit status 2.
 */
class VerifyUntrustedInputTest {

    /** What a file outside the output's folder holds: it must never be printed. */
    private static final String SECRET = "root:*:SECRET-4711:0:99999:7:::";

    @TempDir
    Path dir;

    private Path out;
    private Path secret;
    private String expectedHeader;

    @BeforeEach
    void anOutputInItsOwnFolderNextToASecretFile() throws IOException {
        secret = Files.writeString(dir.resolve("shadow"), SECRET + "\n");
        out = Files.createDirectory(dir.resolve("out"));
        Path basic = out.resolve("basic.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", "basic", "-o", basic.toString()).status());
        expectedHeader = Files.readAllLines(basic).get(0);
    }

    private static String sha256(String text) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** An output of one header line naming {@code trace} with the secret file's checksum, so only the path rule can stop it. */
    private Path outputNaming(String trace) throws IOException, NoSuchAlgorithmException {
        String header = expectedHeader.replace("\"trace\":\"builtin:basic\"", "\"trace\":\"" + trace.replace("\\",
                "\\\\") + "\"").replaceFirst("\"trace_sha256\":\"[0-9a-f]+\"", "\"trace_sha256\":\""
                + sha256(SECRET + "\n") + "\"");
        return Files.writeString(out.resolve("port.jsonl"), header + "\n");
    }

    /** Exit status 2, one line on standard error starting as given, no stack trace, nothing on standard output. */
    private static void assertBadInput(CliRun r, String start) {
        assertEquals(ExitCode.BAD_INPUT, r.status(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith(start), r.err());
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
        assertEquals("", r.out());
    }

    private static void assertSecretNotShown(CliRun r) {
        assertFalse((r.out() + r.err()).contains("SECRET-4711"), r.out() + r.err());
        assertFalse((r.out() + r.err()).contains("root:"), r.out() + r.err());
    }

    @Test
    void aRelativePathLeavingTheFolderIsNotRead() throws Exception {
        Path port = outputNaming("../shadow");
        CliRun r = arc("verify", port.toString());
        assertBadInput(r, "arc: " + port + ":1: the header's trace \"../shadow\" is outside the output's folder "
                + out.toRealPath() + ", so it was not read (a header's trace path is looked up in the output's folder "
                + "only); give the trace with --trace FILE");
        assertSecretNotShown(r);
    }

    @Test
    void anEtcShadowStyleTraversalIsNotRead() throws Exception {
        String traversal = "../".repeat(40) + secret.toAbsolutePath().toString().substring(1);
        CliRun r = arc("verify", outputNaming(traversal).toString());
        assertBadInput(r, "arc: ");
        assertTrue(r.err().contains("is outside the output's folder"), r.err());
        assertSecretNotShown(r);
    }

    @Test
    void anAbsolutePathOutsideTheFolderIsNotReadAndOneInsideIs() throws Exception {
        CliRun r = arc("verify", outputNaming(secret.toAbsolutePath().toString()).toString());
        assertBadInput(r, "arc: ");
        assertTrue(r.err().contains("is outside the output's folder"), r.err());
        assertSecretNotShown(r);

        Path trace = Files.writeString(out.resolve("t.ops"), "read 1 1K\nread 1 1K\n");
        Path inside = out.resolve("inside.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", trace.toAbsolutePath().toString(), "-o",
                inside.toString()).status());
        String header = Files.readAllLines(inside).get(0);
        Files.writeString(inside, Files.readString(inside).replace("\"trace\":\"t.ops\"", "\"trace\":\""
                + trace.toAbsolutePath() + "\""));
        assertFalse(Files.readAllLines(inside).get(0).equals(header), "the header now names an absolute path");
        CliRun ok = arc("verify", inside.toString());
        assertEquals(ExitCode.SUCCESS, ok.status(), ok.out() + ok.err());
    }

    @Test
    void aSymbolicLinkLeadingOutOfTheFolderIsNotRead() throws Exception {
        Files.createSymbolicLink(out.resolve("link.ops"), secret);
        CliRun r = arc("verify", outputNaming("link.ops").toString());
        assertBadInput(r, "arc: ");
        assertTrue(r.err().contains("the header's trace \"link.ops\" is a symbolic link to a file outside the "
                + "output's folder"), r.err());
        assertSecretNotShown(r);

        Files.createSymbolicLink(out.resolve("up"), dir);
        r = arc("verify", outputNaming("up/shadow").toString());
        assertBadInput(r, "arc: ");
        assertTrue(r.err().contains("outside the output's folder"), r.err());
        assertSecretNotShown(r);
    }

    @Test
    void aTraceOutsideTheFolderIsGivenWithTraceAndMustHaveTheHeadersChecksum() throws IOException {
        Path trace = Files.writeString(dir.resolve("t.ops"), "read 1 1K\nread 1 1K\nread 2 2K\n");
        Path port = out.resolve("t.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", trace.toString(), "-o", port.toString()).status());
        assertTrue(Files.readString(port).contains("\"trace\":\"../t.ops\""));
        assertBadInput(arc("verify", port.toString()), "arc: " + port + ":1: the header's trace \"../t.ops\" is "
                + "outside the output's folder");

        CliRun given = arc("verify", port.toString(), "--trace", trace.toString());
        assertEquals(ExitCode.SUCCESS, given.status(), given.out() + given.err());
        assertTrue(given.out().contains(" matches the spec on " + trace + ": 4 lines"), given.out());

        Path other = Files.writeString(dir.resolve("u.ops"), "read 1 1K\n");
        assertBadInput(arc("verify", port.toString(), "--trace", other.toString()), "arc: " + port + ":1: --trace \""
                + other + "\" is not the trace the output was made from: its sha256 is ");
        assertBadInput(arc("verify", port.toString(), port.toString(), "--trace", trace.toString()),
                "arc: --trace has no effect with two files (EXPECTED is the expected output; no trace is re-run), "
                        + "was given");
    }

    @Test
    void aTraceReadFromStandardInputIsAskedForWithTrace() throws IOException {
        String ops = "read 1 1K\nread 2 1K\n";
        Path port = out.resolve("stdin.jsonl");
        CliRun conform = arcWithStdin(ops.getBytes(StandardCharsets.UTF_8), "conform", "-", "-o", port.toString());
        assertEquals(ExitCode.SUCCESS, conform.status(), conform.err());
        assertTrue(Files.readString(port).contains("\"trace\":\"<stdin>\""), Files.readString(port));
        assertBadInput(arc("verify", port.toString()), "arc: " + port + ":1: the header's trace is \"<stdin>\": the "
                + "output was made from a trace read on standard input, which cannot be read again; give that trace "
                + "with --trace FILE");
        CliRun given = arcWithStdin(ops.getBytes(StandardCharsets.UTF_8), "verify", port.toString(), "--trace", "-");
        assertEquals(ExitCode.SUCCESS, given.status(), given.out() + given.err());
    }

    @Test
    void anUnknownBuiltinAMissingFileAndAnOutputOnStandardInputAreOneLineNamingFileAndLine() throws Exception {
        Path port = outputNaming("builtin:no-such");
        assertBadInput(arc("verify", port.toString()), "arc: " + port + ":1: the header's trace \"builtin:no-such\" "
                + "must be a built-in trace of this arc (arc conform --list lists them), was not one");
        port = outputNaming("missing.ops");
        assertBadInput(arc("verify", port.toString()), "arc: " + port + ":1: the header's trace \"missing.ops\" was not "
                + "found in the output's folder " + out.toRealPath() + " (a header's trace path is looked up in the "
                + "output's folder only); give the trace with --trace FILE");
        byte[] header = Files.readAllBytes(outputNaming("t.ops"));
        assertBadInput(arcWithStdin(header, "verify", "-"), "arc: <stdin>:1: the header's trace \"t.ops\" is a path, "
                + "which is looked up in the output's folder, and an output read from standard input has none; give "
                + "the trace with --trace FILE");
    }

    @Test
    void controlCharactersInOpsAndValuesArePrintedAsEscapes() throws IOException {
        Path expected = out.resolve("basic.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        lines.set(2, lines.get(2).replaceFirst("\"op\":\"[^\"]*\"", "\"op\":\"x\\\\u001b[2J\\\\u009b31m\\\\u202e\""));
        lines.set(3, lines.get(3).replace("\"outcome\":\"", "\"outcome\":\"\\u001b]0;title\\u0007"));
        Path port = Files.write(out.resolve("escapes.jsonl"), lines);
        CliRun text = arc("verify", port.toString(), expected.toString(), "--max", "2");
        assertEquals(ExitCode.FINDING, text.status(), text.err());
        assertTrue(text.out().contains("  operation 2 (trace line 5): x\\u001b[2J\\u009b31m\\u202e -> HIT_MRU\n"),
                text.out());
        assertTrue(text.out().contains("  expected: \"\\u001b]0;title\\u0007"), text.out());
        CliRun json = arc("verify", expected.toString(), port.toString(), "--json", "--max", "2");
        assertEquals(ExitCode.FINDING, json.status(), json.err());
        assertTrue(json.out().contains("\"actual\":\"x\\u001b[2J\\u009b31m\\u202e\""), json.out());
        for (CliRun r : List.of(text, json)) {
            assertTrue(r.out().chars().allMatch(c -> c == '\n' || c >= 0x20 && c < 0x7f), "printable ASCII: "
                    + r.out());
        }
    }

    @Test
    void aLongValueIsCutAndItsLengthSaid() throws IOException {
        Path expected = out.resolve("basic.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        lines.set(1, lines.get(1).replace("\"outcome\":\"MISS\"", "\"outcome\":\"" + "M".repeat(50_000) + "\""));
        Path port = Files.write(out.resolve("long.jsonl"), lines);
        CliRun text = arc("verify", expected.toString(), port.toString());
        assertEquals(ExitCode.FINDING, text.status(), text.err());
        assertTrue(text.out().contains("  actual:   \"" + "M".repeat(999) + "... (50002 characters)\n"), "cut at 1000");
        assertTrue(text.out().length() < 2000, "length " + text.out().length());
        CliRun json = arc("verify", expected.toString(), port.toString(), "--json");
        assertTrue(json.out().contains("\"actual\":\"" + "M".repeat(1000) + "... (50000 characters)\""), "cut at 1000");
        assertTrue(json.out().length() < 2000, "length " + json.out().length());
    }

    /** Was: about 5 s on a 2-core machine, the number parsed whole and echoed in the report (400 KB of digits). */
    @Test
    void aNumberOf400000DigitsIsAnErrorNamingFileLineAndTheRule() throws IOException {
        Path expected = out.resolve("basic.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(expected));
        lines.set(1, lines.get(1).replace("\"tick\":0", "\"tick\":" + "9".repeat(400_000)));
        Path port = Files.write(out.resolve("digits.jsonl"), lines);
        CliRun r = arc("verify", expected.toString(), port.toString());
        assertBadInput(r, "arc: " + port + ":2: not JSON: column ");
        assertTrue(r.err().contains(": a number must have at most 40 characters (a u64 has 20 digits), this one has "
                + "400000, got '9', in \"\\\"evicted\\\":[],\\\"tick\\\":99999999999999999999\""), r.err());
        assertTrue(r.err().length() < 400, r.err());

        lines.set(1, lines.get(1).replace("\"tick\":" + "9".repeat(400_000), "\"tick\":1e99999999999"));
        Files.write(port, lines);
        r = arc("verify", expected.toString(), port.toString());
        assertBadInput(r, "arc: " + port + ":2: not JSON: column ");
        assertTrue(r.err().contains("a number's exponent must be within -2^31..2^31 (a decimal's 32-bit scale)"),
                r.err());
        assertFalse(r.err().contains("Too many nonzero exponent digits"), "Java's own message: " + r.err());
    }

    @Test
    void aTraceInsideTheFolderThatIsNotAnOpTraceIsNamedWithAShortEscapedExcerpt() throws Exception {
        Files.writeString(out.resolve("bad.ops"), "read 1 1K\nfrob\u001b[31m" + "x".repeat(5000) + "\n");
        Path port = outputNaming("bad.ops");
        CliRun r = arc("verify", port.toString());
        assertBadInput(r, "arc: " + out.toRealPath().resolve("bad.ops") + ":2: unknown operation \"frob\\u001b[31mxxx");
        assertTrue(r.err().length() < 400, r.err());
    }

    @Test
    void helpStatesTheRuleAndTheTraceOption() {
        String help = arc("verify", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("its trace is a built-in trace, or a file looked up in the output file's folder "
                + "(never the working folder) that must stay inside it (no .., no absolute path or symbolic link "
                + "leading out); any other trace is not read, and is given with --trace FILE, whose sha256 must be "
                + "the header's trace_sha256."), help);
        assertTrue(help.contains("--trace=FILE With one file: the trace to re-run the spec on"), help);
    }
}
