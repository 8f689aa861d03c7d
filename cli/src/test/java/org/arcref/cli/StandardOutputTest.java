package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A standard output that cannot be written ends {@code arc} with one line and exit status 2, for every subcommand
 * that writes there: a real {@code java} process with standard output on {@code /dev/full} (a full disk), and one
 * whose reader closes the pipe after 100 bytes (as {@code | head -c 100} does). Without {@link StandardOutput}
 * both exited 0.
 */
class StandardOutputTest {

    private static final String MESSAGE = "arc: cannot write to standard output";

    /** An output whose every write fails, as a full disk's. */
    private static final OutputStream FULL = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("disk full");
        }
    };

    @TempDir
    static Path dir;

    /** Each command writes to standard output; {@code conform} and {@code gen} write more than a pipe holds. */
    private static List<String> command(String name) throws IOException {
        Path expected = dir.resolve("expected.jsonl");
        if (!Files.exists(expected)) {
            assertEquals(0, ArcCommand.run(new String[] {"conform", "waiters", "--headers", "-o", expected.toString()},
                    InputStream.nullInputStream(), new PrintWriter(new StringWriter()),
                    new PrintWriter(new StringWriter())));
        }
        return switch (name) {
            case "help" -> List.of("--help");
            case "conform" -> List.of("conform", "quirk-adapt-multiply", "--headers");
            case "conform-print" -> List.of("conform", "quirk-adapt-multiply", "--print-trace");
            case "replay" -> List.of("replay", "--json", "--length", "20000", "--sizes", "100");
            case "verify" -> List.of("verify", expected.toString(), expected.toString(), "--json");
            case "gen" -> List.of("gen", "--seed", "1", "--ops", "100000");
            case "explore" -> List.of("explore", "--tries", "20", "--seed", "1", "--json");
            case "soak" -> List.of("soak", "--duration", "1s", "--json");
            case "report" -> List.of("report", "--out", "-", "--length", "20000", "--sizes", "100");
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"help", "conform", "conform-print", "replay", "verify", "gen", "explore", "soak", "report"})
    void aFullDiskIsExitStatus2WithOneLine(String name) throws Exception {
        Process p = ArcProcess.builder(command(name)).redirectOutput(new File("/dev/full")).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name);
        assertEquals(ExitCode.BAD_INPUT, p.exitValue(), err);
        assertTrue(err.lines().anyMatch(l -> l.startsWith(MESSAGE + " (No space left on device)")), err);
        assertTrue(err.lines().noneMatch(l -> l.startsWith("\tat ")), "no stack trace: " + err);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"conform", "gen"})
    void aClosedPipeIsExitStatus2WithOneLine(String name) throws Exception {
        Process p = ArcProcess.builder(command(name)).start();
        try (InputStream out = p.getInputStream()) {
            assertEquals(100, out.readNBytes(100).length);
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), name);
        assertEquals(ExitCode.BAD_INPUT, p.exitValue(), err);
        assertTrue(err.lines().anyMatch(l -> l.startsWith(MESSAGE + " (Broken pipe)")), err);
    }

    @Test
    void onlyTheFirstFailureIsThrownAndFinishReportsOne() {
        StandardOutput out = StandardOutput.over(FULL);
        UncheckedIOException e = org.junit.jupiter.api.Assertions.assertThrows(UncheckedIOException.class,
                () -> out.println("x"));
        assertTrue(e.getMessage().startsWith("cannot write to standard output (disk full)"), e.getMessage());
        out.println("dropped");
        StringWriter err = new StringWriter();
        assertEquals(ExitCode.FINDING, out.finish(new PrintWriter(err, true), ExitCode.FINDING));
        assertEquals("", err.toString());
    }

    @Test
    void finishReportsAFailureOfWhatWasStillBuffered() {
        StandardOutput out = StandardOutput.over(FULL);
        out.print("no line end: still buffered");
        StringWriter err = new StringWriter();
        assertEquals(ExitCode.BAD_INPUT, out.finish(new PrintWriter(err, true), ExitCode.SUCCESS));
        assertTrue(err.toString().startsWith(MESSAGE + " (disk full)"), err.toString());
    }
}
