package org.arcref.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One running {@code arc-oracle --serve} (the real {@code arc.c} of one release, {@code oracle/src/main/c}), fed many
 * traces over its standard input, so that a campaign pays for no process or JVM per trace. The oracle runs the
 * traces in a worker process, each on a fresh ARC; a trace that is rejected or crashes (a failed {@code ASSERT})
 * ends only that worker, which the oracle replaces.
 *
 * <p>Protocol ({@code oracle/src/main/c/main.c}): a request {@code trace BYTES HEADERS NAME\n} followed by the
 * trace's text; the reply is the conformance lines, then {@code @end ok}, {@code @end error MESSAGE} or
 * {@code @end crash MESSAGE}, the last two after a line break of their own (a worker that aborts may leave a line
 * unfinished): an empty line when the worker's last line was whole, which is skipped, and otherwise the unfinished
 * line, which is dropped, so that the output holds only the lines of operations the oracle completed. Not
 * thread-safe: one trace at a time, which may be {@link #submit submitted} before its output is
 * {@link #collect collected}, so that the oracle and the caller work side by side.
 */
public final class OracleProcess implements AutoCloseable {

    /** The harness switches ({@code docs/oracle.md}); each is on unless turned off. */
    public enum Switch {
        /** {@code aggsum_upper_bound}/{@code aggsum_lower_bound} read the exact value (the spec's exact arc_size). */
        EXACT_AGGSUM,
        /** Headers, buffers and markers cost no {@code arc_size} and no {@code arc_evict_count}. */
        NO_HEADER_MEMORY,
        /** A scatter ABD's rounding up to whole pages costs no {@code arc_size}. */
        NO_CHUNK_WASTE;

        /** @return the switch's name on the oracle's command line */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Path binary;
    private final Process process;
    private final OutputStream requests;
    private final BufferedReader replies;
    private boolean pending;

    private OracleProcess(Path binary, Process process) {
        this.binary = binary;
        this.process = process;
        this.requests = process.getOutputStream();
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8),
                1 << 16);
    }

    /**
     * Starts an oracle with every switch on.
     *
     * @param binary the {@code arc-oracle} executable
     * @return the running oracle
     * @throws IllegalArgumentException naming the binary if it is missing or not executable
     * @throws UncheckedIOException if it cannot be started
     */
    public static OracleProcess start(Path binary) {
        return start(binary, Map.of());
    }

    /**
     * @param binary the {@code arc-oracle} executable
     * @param switches switches to set (those not named stay on)
     * @return the running oracle
     * @throws IllegalArgumentException naming the binary if it is missing or not executable
     * @throws UncheckedIOException if it cannot be started
     */
    public static OracleProcess start(Path binary, Map<Switch, Boolean> switches) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new IllegalArgumentException("the oracle binary must be an executable file, was " + binary
                    + " (build it with: bash oracle/scripts/build.sh oracle/target;"
                    + " docs/oracle.md)");
        }
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--serve"));
        switches.forEach((s, on) -> command.addAll(List.of("--switch", s.label() + "=" + (on ? "on" : "off"))));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            return new OracleProcess(binary, p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the oracle " + binary + ": " + e.getMessage(), e);
        }
    }

    /**
     * Runs one trace: {@link #submit} then {@link #collect}.
     *
     * @param name the trace's name in the output's header
     * @param text the trace's text (lines ending in {@code \n}: its SHA-256 is taken over exactly these bytes)
     * @param headers whether each operation line lists every header
     * @return what the oracle wrote
     * @throws IllegalArgumentException if the name holds a line break
     * @throws UncheckedIOException if the oracle process fails or ends
     */
    public OracleOutput run(String name, String text, boolean headers) {
        submit(name, text, headers);
        return collect(name);
    }

    /**
     * Sends one trace to the oracle, which starts on it while the caller goes on (the spec's run of the same trace,
     * say); {@link #collect} reads its output. At most one trace may be submitted and not yet collected.
     *
     * @param name the trace's name in the output's header
     * @param text the trace's text (lines ending in {@code \n}: its SHA-256 is taken over exactly these bytes)
     * @param headers whether each operation line lists every header
     * @throws IllegalArgumentException if the name holds a line break
     * @throws IllegalStateException if a trace is submitted and not collected
     * @throws UncheckedIOException if the oracle process fails or ends
     */
    public void submit(String name, String text, boolean headers) {
        if (name.indexOf('\n') >= 0 || name.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("the trace name must be one line, was \"" + name + "\"");
        }
        if (pending) {
            throw new IllegalStateException("a trace was submitted and not collected");
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        try {
            requests.write(("trace " + bytes.length + " " + (headers ? 1 : 0) + " " + name + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            requests.write(bytes);
            requests.flush();
            pending = true;
        } catch (IOException e) {
            throw new UncheckedIOException("the oracle " + binary + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * @param name the submitted trace's name, for messages
     * @return what the oracle wrote for the trace {@link #submit} sent
     * @throws IllegalStateException if no trace is submitted
     * @throws UncheckedIOException if the oracle process fails or ends
     */
    public OracleOutput collect(String name) {
        if (!pending) {
            throw new IllegalStateException("no trace was submitted");
        }
        pending = false;
        List<String> lines = new ArrayList<>();
        boolean lineBreak = false; // whether the line before holds nothing: the break before an error or crash
        try {
            for (String line = replies.readLine(); line != null; line = replies.readLine()) {
                if (line.startsWith("@end ")) {
                    String end = line.substring("@end ".length());
                    if (!end.equals("ok") && !lineBreak && !lines.isEmpty()) {
                        lines.remove(lines.size() - 1); // the line the failed worker left unfinished
                    }
                    return ending(lines, end);
                }
                lineBreak = line.isEmpty();
                if (!lineBreak) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the oracle " + binary + " failed: " + e.getMessage(), e);
        }
        throw new UncheckedIOException(new IOException("the oracle " + binary + " ended in the middle of " + name
                + (process.isAlive() ? "" : " (exit status " + process.exitValue() + ")")));
    }

    private static OracleOutput ending(List<String> lines, String end) {
        if (end.equals("ok")) {
            return new OracleOutput(lines, OracleOutput.Ending.OK, "");
        }
        int space = end.indexOf(' ');
        String kind = space < 0 ? end : end.substring(0, space);
        String message = space < 0 ? "" : end.substring(space + 1);
        return new OracleOutput(lines, kind.equals("error") ? OracleOutput.Ending.ERROR : OracleOutput.Ending.CRASH,
                message);
    }

    /** Ends the oracle: closes its input, which ends it, and waits a little for it. */
    @Override
    public void close() {
        try {
            requests.close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
