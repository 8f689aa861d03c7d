package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C reaches a real {@code arc} process at several points of its work (loading a trace, replaying, running a
 * conformance trace, exploring, generating, reporting, soaking): each stops within the grace period
 * ({@link Interruption#GRACE_SECONDS}), exits with status 130 and prints its one-line summary. Before these checks the
 * repeat loop and the loading of a trace did not poll the interrupt: {@code replay --repeat 2147483647} exited 130
 * after the grace period with nothing printed.
 *
 * <p>Each case starts the process, waits until it is at the intended point (a line it prints, a file it writes, the
 * bytes it has read, or a fixed few seconds where the work is far longer whatever the machine), sends SIGINT with
 * {@code kill -INT} and reads both streams to their end.
 */
class InterruptTest {

    /** How long a process may take to stop after the signal: the grace period and a margin for a loaded machine. */
    private static final long STOP_SECONDS = Interruption.GRACE_SECONDS + 5;

    @TempDir
    Path dir;

    /** A process under test, its streams read as it writes them. */
    private static final class Run {
        final Process process;
        final CompletableFuture<String> out;
        final List<String> err = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Thread errReader;

        Run(ProcessBuilder builder) throws IOException {
            process = builder.start();
            out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
            errReader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        err.add(line);
                    }
                } catch (IOException e) {
                    err.add("test: cannot read standard error: " + e);
                }
            });
            errReader.start();
        }

        /** Waits until standard error has a line that satisfies {@code seen}. */
        void awaitErr(Predicate<String> seen) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (err.stream().noneMatch(seen)) {
                assertTrue(process.isAlive(), "ended before the signal: " + err);
                assertTrue(System.nanoTime() < deadline, "no such line in 60 s: " + err);
                Thread.sleep(20);
            }
        }

        /** Sends SIGINT and waits for the process to end; returns standard output. */
        String interrupt() throws Exception {
            assertTrue(process.isAlive(), "ended before the signal: " + err);
            Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -INT");
            assertTrue(process.waitFor(STOP_SECONDS, TimeUnit.SECONDS), "still running " + STOP_SECONDS
                    + " s after SIGINT: " + err);
            errReader.join(TimeUnit.SECONDS.toMillis(5));
            String text = out.get(5, TimeUnit.SECONDS);
            assertEquals(ExitCode.INTERRUPTED, process.exitValue(), "stdout: " + text + "\nstderr: " + err);
            assertTrue(err.stream().noneMatch(l -> l.startsWith("\tat ") || l.contains("did not stop within")),
                    "a summary in time, no stack trace: " + err);
            return text;
        }

        private static String readAll(InputStream in) {
            try {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "test: cannot read standard output: " + e;
            }
        }
    }

    private static Run arc(String... args) throws IOException {
        return new Run(ArcProcess.builder(List.of(args)));
    }

    @Test
    void aReplayRepeatedForeverPrintsTheSizesItReplayed() throws Exception {
        Run run = arc("replay", "--length", "1000", "--sizes", "250", "--repeat", "2147483647");
        Thread.sleep(3000); // a round of 1,000 requests takes milliseconds: the first ended long before
        String out = run.interrupt();
        assertTrue(out.contains("interrupted: only the sizes above were replayed"), out);
        assertTrue(out.lines().anyMatch(l -> l.trim().startsWith("250")), "the size replayed at least once: " + out);
    }

    @Test
    void loadingATraceFromAPipeThatNeverEndsStopsWithOneLine() throws Exception {
        Run run = new Run(ArcProcess.builder(List.of("replay", "-", "--sizes", "100"))
                .redirectInput(ProcessBuilder.Redirect.PIPE));
        AtomicLong written = new AtomicLong();
        Thread writer = new Thread(() -> {
            byte[] lines = "1\n2\n3\n4\n5\n6\n7\n8\n".repeat(4096).getBytes(StandardCharsets.US_ASCII);
            try (OutputStream in = run.process.getOutputStream()) {
                while (true) {
                    in.write(lines);
                    written.addAndGet(lines.length);
                }
            } catch (IOException e) {
                // the process stopped reading: it ended
            }
        });
        writer.setDaemon(true);
        writer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (written.get() < (1 << 20)) { // more than a pipe holds: arc is reading, so its main has begun
            assertTrue(run.process.isAlive() && System.nanoTime() < deadline, "not reading: " + run.err);
            Thread.sleep(20);
        }
        assertEquals("", run.interrupt());
        assertTrue(run.err.stream().anyMatch(l -> l.startsWith("arc: interrupted while reading trace file <stdin> "
                + "(after ") && l.endsWith(" bytes); no result")), run.err.toString());
    }

    @Test
    void aConformanceRunStopsAfterTheOperationsItWrote() throws Exception {
        Path trace = dir.resolve("blocks.trace");
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 400_000; i++) {
            text.append(i * 7919L % 100_003).append('\n');
        }
        Files.writeString(trace, text);
        Path output = dir.resolve("out.jsonl");
        Run run = arc("conform", trace.toString(), "--format", "lirs", "--pages", "1000", "--headers", "-o",
                output.toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(output) || Files.size(output) < (1 << 20)) {
            assertTrue(run.process.isAlive() && System.nanoTime() < deadline, "no output yet: " + run.err);
            Thread.sleep(20);
        }
        run.interrupt();
        assertTrue(run.err.stream().anyMatch(l -> l.matches("arc conform: interrupted after \\d+ of 800000 "
                + "operations; .*out\\.jsonl holds only those")), run.err.toString());
        long lines;
        try (var l = Files.lines(output)) {
            lines = l.count();
        }
        assertTrue(lines > 1 && lines < 800_001, "a header and some operations: " + lines);
    }

    @Test
    void anExplorationPrintsWhatItExplored() throws Exception {
        Run run = arc("explore", "--duration", "1h", "--seed", "5", "--out", dir.toString());
        run.awaitErr(l -> l.startsWith("arc explore: seed 5"));
        Thread.sleep(500);
        String out = run.interrupt();
        assertTrue(out.matches("(?s)arc explore: seed 5, shard 0/1, \\d+ tries .*: interrupted, no failure so far, "
                + ".*"), out);
    }

    @Test
    void generatingTracesSaysHowManyWereWritten() throws Exception {
        Run run = arc("gen", "--seed", "3", "--ops", "50", "--count", "100000", "-o", dir.toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(dir.resolve(GenCommand.fileName(3, 5)))) {
            assertTrue(run.process.isAlive() && System.nanoTime() < deadline, "no traces yet: " + run.err);
            Thread.sleep(20);
        }
        run.interrupt();
        assertTrue(run.err.stream().anyMatch(l -> l.matches("arc gen: interrupted after writing \\d+ of 100000 "
                + "traces to .*: gen-3-0\\.ops \\.\\.\\. gen-3-\\d+\\.ops")), run.err.toString());
    }

    @Test
    void aReportWritesNothingAndSaysSo() throws Exception {
        Path page = dir.resolve("report.html");
        Run run = arc("report", "--length", "8000000", "--out", page.toString());
        Thread.sleep(3000); // sixteen replays of 8,000,000 requests take far longer
        run.interrupt();
        assertTrue(run.err.stream().anyMatch(l -> l.matches("arc report: interrupted after \\d+ of \\d+ replays; no "
                + "report written")), run.err.toString());
        assertTrue(!Files.exists(page), "no report");
    }

    @Test
    void aSoakPrintsItsSummary() throws Exception {
        Run run = arc("soak", "--duration", "1h", "--threads", "2", "--verbose");
        run.awaitErr(l -> l.startsWith("arc: info: zthr priorities")); // the soak's ARC has started its zthr
        Thread.sleep(500);
        String out = run.interrupt();
        assertTrue(out.startsWith("arc soak: 2 threads, ") && out.contains(" (interrupted), "), out);
    }
}
