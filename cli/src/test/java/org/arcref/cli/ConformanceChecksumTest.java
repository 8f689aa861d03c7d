package org.arcref.cli;

import static org.arcref.cli.CliRun.arc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conformance for porters: the header carries the trace's SHA-256 and its path from the output's folder;
 * one-file {@code verify} finds a trace in that folder, whatever the working directory, and reports a changed trace.
 * A trace outside the folder is not followed (the header is untrusted input) and is given with
 * {@code --trace}.
 */
class ConformanceChecksumTest {

    @TempDir
    Path dir;

    @Test
    void oneFileVerifyFindsTheTraceNextToTheOutputAndReportsAChangedTrace() throws Exception {
        String ops = "read 1 1K\nread 1 1K\nread 2 2K\n";
        Path folder = Files.createDirectory(dir.resolve("out"));
        Path trace = Files.writeString(folder.resolve("my.ops"), ops);
        Path out = folder.resolve("expected.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", trace.toString(), "-o", out.toString()).status());
        String header = Files.readAllLines(out).get(0);
        String sum = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(ops.getBytes(StandardCharsets.UTF_8)));
        assertTrue(header.contains("\"trace\":\"my.ops\",\"trace_sha256\":\"" + sum + "\""), header);

        CliRun same = arc("verify", out.toString());
        assertEquals(ExitCode.SUCCESS, same.status(), same.out() + same.err());

        Files.writeString(trace, ops + "read 3 1K\n");
        CliRun changed = arc("verify", out.toString());
        assertEquals(ExitCode.BAD_INPUT, changed.status(), changed.out() + changed.err());
        assertTrue(changed.err().startsWith("arc: " + out + ":1: the trace \"my.ops\" changed since the output was "
                + "written: its sha256 is "), changed.err());

        Files.delete(trace);
        CliRun gone = arc("verify", out.toString());
        assertEquals(ExitCode.BAD_INPUT, gone.status());
        assertTrue(gone.err().contains("the header's trace \"my.ops\" was not found in the output's folder "
                + folder.toRealPath()), gone.err());
    }

    @Test
    void aTraceOutsideTheOutputsFolderIsGivenWithTrace() throws Exception {
        Path trace = Files.writeString(dir.resolve("my.ops"), "read 1 1K\nread 1 1K\n");
        Path out = Files.createDirectory(dir.resolve("out")).resolve("expected.jsonl");
        assertEquals(ExitCode.SUCCESS, arc("conform", trace.toString(), "-o", out.toString()).status());
        assertTrue(Files.readAllLines(out).get(0).contains("\"trace\":\"../my.ops\""));
        assertEquals(ExitCode.BAD_INPUT, arc("verify", out.toString()).status());
        CliRun given = arc("verify", out.toString(), "--trace", trace.toString());
        assertEquals(ExitCode.SUCCESS, given.status(), given.out() + given.err());
    }
}
