package org.arcref.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.zfs.Operation;

/**
 * One run of {@code arc-oracle --tree} ({@code oracle/src/main/c/main.c}): a tree of transitions, each state reached
 * once by its first path and left by each of its transitions, run with one fork per transition instead of one
 * process per trace. The tree's text is a trace's {@code # conform:} line and one line per transition, {@code DEPTH
 * ID OPERATION}, in depth-first order: a transition one deeper than the one before it leaves the state that one
 * reached. The oracle writes the header, then each transition's conformance line, its {@code index} the depth plus
 * one and its {@code line} the transition's id: in the tree's order with one job, in no fixed order with more.
 */
public final class OracleTree {

    /**
     * One transition of a tree.
     *
     * @param depth the depth of the state it leaves (the root's is 0)
     * @param id its id, which its output line gives as its {@code line}
     * @param op its operation
     */
    public record Transition(int depth, long id, Operation op) {
    }

    /**
     * How the oracle ended.
     *
     * @param status its exit status (0: every transition ran)
     * @param message what it wrote on standard error
     */
    public record Ending(int status, String message) {
    }

    private OracleTree() {
    }

    /**
     * @param settings the settings the tree runs under
     * @param transitions the transitions in depth-first order
     * @return the tree's text, each line ending in {@code \n}
     */
    public static String text(ConformanceSettings settings, List<Transition> transitions) {
        StringBuilder text = new StringBuilder(ConformanceTrace.text(settings, List.of()));
        for (Transition t : transitions) {
            text.append(t.depth()).append(' ').append(t.id()).append(' ').append(t.op().toTraceLine()).append('\n');
        }
        return text.toString();
    }

    /**
     * Runs a tree through an oracle, every header listed, handing each line it writes to {@code line} as it comes.
     * With more than one job the lines after the header come in no fixed order.
     *
     * @param binary the {@code arc-oracle} executable
     * @param name the tree's name in the output's header
     * @param text the tree's text ({@link #text})
     * @param switches switches to set (those not named stay on)
     * @param jobs how many processes of the tree may run operations at once (1 to 64)
     * @param line told each output line, the header first; returning false ends the run there
     * @return how the oracle ended (a run that {@code line} ended has a non-zero status)
     * @throws IllegalArgumentException naming the binary if it is missing or not executable
     * @throws UncheckedIOException if the oracle cannot be run
     */
    public static Ending run(Path binary, String name, String text, Map<OracleProcess.Switch, Boolean> switches,
            int jobs, Predicate<String> line) {
        if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
            throw new IllegalArgumentException("the oracle binary must be an executable file, was " + binary);
        }
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--tree", "--jobs", Integer.toString(jobs),
                "--headers", "--name", name));
        switches.forEach((s, on) -> command.addAll(List.of("--switch", s.label() + "=" + (on ? "on" : "off"))));
        command.add("-");
        Process p;
        try {
            p = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the oracle " + binary + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        try (OutputStream in = p.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the oracle ended before reading the whole tree: its status and message say why
        }
        boolean stopped = false;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8), 1 << 16)) {
            String l;
            while (!stopped && (l = out.readLine()) != null) {
                stopped = !line.test(l);
            }
        } catch (IOException e) {
            p.destroyForcibly();
            throw new UncheckedIOException("the oracle " + binary + " failed: " + e.getMessage(), e);
        }
        // with its output closed, each process of the tree still running ends at its next write
        if (stopped) {
            p.destroyForcibly();
        }
        try {
            return new Ending(p.waitFor(), errors.join().strip());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted while the oracle ran", e));
        }
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "cannot read the oracle's standard error: " + e.getMessage();
        }
    }
}
