package org.arcref.models;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One exhaustive check of a Promela model by spin: generate the verifier ({@code spin -a}), compile it with gcc, run
 * it, and judge its report.
 *
 * <p>Contract. {@link #assertHolds()} passes only when pan reports {@code errors: 0} <em>and</em> the search was
 * complete (no depth, memory or bitstate limit hit) and, in a safety check, every statement of every process was
 * reached (pan lists none as unreached: a property cannot hold vacuously behind a guard that never opens); an error
 * fails with the counterexample replayed by
 * {@code spin -t -p}, shortened to the steps that change something. {@link #assertRefuted()} passes only when pan
 * reports at least one error, and returns that shortened counterexample; a variant that spin cannot refute fails
 * the test. Both print one line with the states stored, transitions, depth reached and times, so every build log
 * carries the size of every search. A missing {@code spin} or {@code gcc} fails with the command that installs it;
 * nothing here skips silently ({@code -Dmodels.skip=true} skips the whole module on purpose).
 *
 * <p>Implementation overview. Each check runs in its own folder under {@code models/target/spin/}, named after the
 * model, the mode and the defines, into which the model folder ({@code src/test/promela}) is copied fresh: spin and
 * pan write {@code pan.*} and trail files into the working folder, and two checks of one model with other defines
 * must not share them. Variants are C-preprocessor switches ({@code spin -DNAME=VALUE}), so a variant and the
 * faithful model are one file. Pan is compiled with {@code -DMEMLIM} so that a state space too large for the machine
 * stops with a message (and counts as incomplete) instead of swapping; the depth limit is {@code -m}, large by
 * default, and any "max search depth too small" marks the search incomplete. Lossless state compression
 * ({@code -DCOLLAPSE}) is available, but only with a stated reason; bitstate hashing is not offered at all, because
 * it cannot prove anything.
 */
public final class SpinCheck {

    /** How pan searches. */
    public enum Mode {
        /** Assertions and invalid end states (deadlocks): {@code gcc -DSAFETY}, {@code ./pan}. */
        SAFETY,
        /** Non-progress cycles under weak fairness: {@code gcc -DNP}, {@code ./pan -l -f}. */
        NON_PROGRESS,
        /** An LTL claim of the model, acceptance cycles under weak fairness: {@code ./pan -a -f -N claim}. */
        LTL
    }

    private static final long STEP_TIMEOUT_SECONDS = 600;
    private static final int MAX_TRAIL_LINES = 80;

    private final String model;
    private final Mode mode;
    private final String claim;
    private final Map<String, String> defines = new LinkedHashMap<>();
    private long depth = 1_000_000;
    private String collapseReason;
    private boolean shortest;
    private int memoryLimitMb = 4096;
    private int nfair;

    private SpinCheck(String model, Mode mode, String claim) {
        this.model = model;
        this.mode = mode;
        this.claim = claim;
    }

    /** A safety check (assertions, invalid end states) of {@code model}, a file in {@code src/test/promela}. */
    public static SpinCheck safety(String model) {
        return new SpinCheck(model, Mode.SAFETY, null);
    }

    /** A search for non-progress cycles under weak fairness. */
    public static SpinCheck nonProgress(String model) {
        return new SpinCheck(model, Mode.NON_PROGRESS, null);
    }

    /** A check of the model's LTL claim {@code claim} under weak fairness. */
    public static SpinCheck ltl(String model, String claim) {
        return new SpinCheck(model, Mode.LTL, claim);
    }

    /** Defines a preprocessor switch ({@code spin -DNAME}). */
    public SpinCheck define(String name) {
        defines.put(name, null);
        return this;
    }

    /** Defines a preprocessor constant ({@code spin -DNAME=VALUE}). */
    public SpinCheck define(String name, Object value) {
        defines.put(name, String.valueOf(value));
        return this;
    }

    /** Sets pan's depth limit ({@code -m}); a search that reaches it is incomplete and fails. */
    public SpinCheck depth(long maxDepth) {
        this.depth = maxDepth;
        return this;
    }

    /** Sets pan's memory limit in MiB ({@code -DMEMLIM}); a search that reaches it is incomplete and fails. */
    public SpinCheck memoryLimitMb(int mb) {
        this.memoryLimitMb = mb;
        return this;
    }

    /**
     * Sets pan's {@code -DNFAIR} for the weak-fairness searches (LTL and non-progress): pan follows at most
     * {@code 4·nfair − 2} processes, the never claim included, and stops with "too many processes" beyond (pan's
     * default is 2, that is 6 processes).
     */
    public SpinCheck nfair(int slots) {
        this.nfair = slots;
        return this;
    }

    /** Compresses stored states losslessly ({@code -DCOLLAPSE}); the reason is printed with the result. */
    public SpinCheck collapse(String reason) {
        this.collapseReason = reason;
        return this;
    }

    /**
     * Makes a refutation report a shortest counterexample: pan searches on after the first error with an ever
     * smaller depth limit ({@code gcc -DREACH}, {@code ./pan -i}), so the trail is the fewest steps that reach an
     * error, which is what a deterministic replay of it in Java follows. Costs a full search; without it the trail
     * is the first one the depth-first search meets.
     */
    public SpinCheck shortest() {
        if (mode != Mode.SAFETY) {
            throw new IllegalStateException("pan -i searches for the shortest path to a safety error only, not in "
                    + mode);
        }
        this.shortest = true;
        return this;
    }

    /**
     * Checks that the property holds: no error, and a complete search.
     *
     * @return pan's report, for tests that assert more about the search
     */
    public PanReport assertHolds() {
        Run run = run();
        if (run.report.errors() > 0) {
            throw new AssertionError(label() + ": spin found " + run.report.errors() + " error(s); counterexample ("
                    + run.workDir.resolve(model + ".trail") + "):\n" + counterexample(run.workDir));
        }
        if (!run.report.complete()) {
            throw new AssertionError(label() + ": the search was incomplete, so it proves nothing: "
                    + run.report.incompleteReasons() + "\n" + run.report.text());
        }
        if (mode == Mode.SAFETY && !run.report.unreached().isEmpty()) {
            throw new AssertionError(label() + ": statements no interleaving reaches, so the properties may hold"
                    + " vacuously there (a guard that can never open, a branch cut off): " + run.report.unreached());
        }
        return run.report;
    }

    /**
     * Checks that spin refutes this variant: at least one error.
     *
     * @return the counterexample, replayed by {@code spin -t -p} and shortened
     */
    public String assertRefuted() {
        Run run = run();
        if (run.report.errors() == 0) {
            throw new AssertionError(label() + ": spin did not refute this broken variant ("
                    + (run.report.complete() ? "complete search" : "incomplete search: "
                    + run.report.incompleteReasons()) + ")\n" + run.report.text());
        }
        String trail = counterexample(run.workDir);
        System.out.println(label() + " counterexample:\n" + trail);
        return trail;
    }

    /** The model, mode and defines, as printed with every result. */
    public String label() {
        String defs = defines.entrySet().stream()
                .map(e -> e.getValue() == null ? e.getKey() : e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
        return model + (defs.isEmpty() ? "" : " [" + defs + "]") + " " + mode.name().toLowerCase()
                + (claim == null ? "" : " " + claim) + (shortest ? " shortest" : "");
    }

    private record Run(PanReport report, Path workDir) { }

    private Run run() {
        Path workDir = prepareWorkDir();
        long start = System.nanoTime();
        List<String> spin = new ArrayList<>(List.of("spin"));
        spin.addAll(spinDefines());
        spin.addAll(List.of("-a", model));
        exec(workDir, spin, "spin", "apt-get install -y spin");

        List<String> gcc = new ArrayList<>(List.of("gcc", "-O2", "-w", "-DMEMLIM=" + memoryLimitMb));
        switch (mode) {
            // NOCLAIM: a model's LTL claims must not ride along in the other modes, where a claim would switch
            // off the invalid-end-state (deadlock) check
            case SAFETY -> gcc.addAll(List.of("-DSAFETY", "-DNOCLAIM"));
            case NON_PROGRESS -> gcc.addAll(List.of("-DNP", "-DNOCLAIM"));
            case LTL -> { }
        }
        if (nfair > 0 && mode != Mode.SAFETY) {
            gcc.add("-DNFAIR=" + nfair);
        }
        if (collapseReason != null) {
            gcc.add("-DCOLLAPSE");
        }
        if (shortest) {
            gcc.add("-DREACH");
        }
        gcc.addAll(List.of("-o", "pan", "pan.c"));
        exec(workDir, gcc, "gcc", "apt-get install -y gcc");
        long compiled = System.nanoTime();

        List<String> pan = new ArrayList<>(List.of("./pan", "-m" + depth));
        switch (mode) {
            case SAFETY -> { }
            case NON_PROGRESS -> pan.addAll(List.of("-l", "-f"));
            case LTL -> pan.addAll(List.of("-a", "-f", "-N", claim));
        }
        if (shortest) {
            pan.add("-i");
        }
        String output = exec(workDir, pan, "pan", null);
        long done = System.nanoTime();
        PanReport report = PanReport.parse(output);
        System.out.printf("[spin] %s: errors %d, %,d states stored, %,d transitions, depth %,d, pan %.2f s"
                        + " (spin+gcc %.2f s), %s%s%n", label(), report.errors(), report.statesStored(),
                report.transitions(), report.depthReached(), (done - compiled) / 1e9, (compiled - start) / 1e9,
                report.errors() > 0 ? (shortest ? "searched on for the shortest counterexample"
                        : "search stopped at the first error")
                        : report.complete() ? "complete search" : "INCOMPLETE search " + report.incompleteReasons(),
                collapseReason == null ? "" : ", COLLAPSE because " + collapseReason);
        return new Run(report, workDir);
    }

    private List<String> spinDefines() {
        return defines.entrySet().stream()
                .map(e -> "-D" + e.getKey() + (e.getValue() == null ? "" : "=" + e.getValue()))
                .toList();
    }

    /**
     * The counterexample of the last error, replayed: the model's own output ({@code printf}, replayed by
     * {@code spin -t}) in full, if it printed anything, then the steps ({@code spin -t -p -g}) with those that change
     * nothing left out and, past {@link #MAX_TRAIL_LINES}, the earliest ones cut.
     */
    private String counterexample(Path workDir) {
        List<String> prints = new ArrayList<>(List.of("spin", "-t"));
        prints.addAll(spinDefines());
        prints.add(model);
        String told = exec(workDir, prints, "spin", "apt-get install -y spin");
        int end = told.indexOf("spin: trail ends");
        told = (end < 0 ? told : told.substring(0, end)).stripTrailing();
        String steps = replayedSteps(workDir);
        return told.lines().allMatch(SpinCheck::spinsOwn) ? steps
                : "the model's output (spin -t):\n" + told + "\nthe steps (spin -t -p -g):\n" + steps;
    }

    /** A line of a replay that spin prints itself (errors, claims), not the model's {@code printf}. */
    private static boolean spinsOwn(String line) {
        return line.startsWith("spin:") || line.startsWith("ltl ") || line.startsWith("Never claim moves")
                || line.contains("START OF CYCLE");
    }

    private String replayedSteps(Path workDir) {
        List<String> replay = new ArrayList<>(List.of("spin", "-t", "-p", "-g"));
        replay.addAll(spinDefines());
        replay.add(model);
        String text = exec(workDir, replay, "spin", "apt-get install -y spin");
        List<String> kept = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (matters(line)) {
                kept.add(line.stripTrailing());
            }
        }
        if (kept.size() > MAX_TRAIL_LINES) {
            int cut = kept.size() - MAX_TRAIL_LINES;
            kept = new ArrayList<>(kept.subList(cut, kept.size()));
            kept.add(0, "... (" + cut + " earlier lines left out; the whole replay: spin -t -p -g in " + workDir + ")");
        }
        return String.join("\n", kept);
    }

    /** Replay lines worth reading: steps with an effect, global values, errors, cycle marks and the model's prints. */
    private static boolean matters(String line) {
        String s = line.strip();
        if (s.isEmpty() || s.startsWith("using statement merging") || s.startsWith("spin: trail ends")) {
            return false;
        }
        if (s.contains("proc ") && s.contains("(state ")) {
            int open = s.lastIndexOf('[');
            String stmt = open < 0 ? "" : s.substring(open);
            return !(stmt.equals("[(1)]") || stmt.equals("[else]") || stmt.equals("[goto :b0]")
                    || stmt.startsWith("[.(goto)]") || stmt.startsWith("[goto ") || stmt.equals("[skip]")
                    || stmt.equals("[break]"));
        }
        return true;
    }

    private Path prepareWorkDir() {
        Path promela = Path.of(System.getProperty("models.promela", "src/test/promela"));
        Path work = Path.of(System.getProperty("models.work", "target/spin"))
                .resolve(label().replaceAll("[^A-Za-z0-9=._-]+", "_"));
        try {
            if (Files.exists(work)) {
                try (Stream<Path> old = Files.walk(work)) {
                    for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(work);
            try (Stream<Path> files = Files.list(promela)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(f, work.resolve(f.getFileName()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the spin folder " + work, e);
        }
        if (!Files.exists(work.resolve(model))) {
            throw new IllegalArgumentException("model must be a file in " + promela + ", was " + model);
        }
        return work;
    }

    /**
     * Runs a command in {@code dir} and returns its output (stdout and stderr together).
     *
     * @param install the command that installs the tool, named when it is missing; null for pan itself
     */
    private String exec(Path dir, List<String> command, String tool, String install) {
        Process process;
        Path log = dir.resolve(tool + ".out");
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            if (install != null) {
                throw new AssertionError(tool + " is not installed (" + e.getMessage() + "): install it with '"
                        + install + "' (Debian/Ubuntu, as root; bash .ci/run does it), or skip the models with"
                        + " -Dmodels.skip=true");
            }
            throw new UncheckedIOException("cannot run " + command + " in " + dir, e);
        }
        try {
            if (!process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(label() + ": " + command + " ran past " + STEP_TIMEOUT_SECONDS + " s");
            }
            String text = Files.readString(log, StandardCharsets.UTF_8);
            // pan exits non-zero on some limits; its report is judged by PanReport, the tools' exits here
            if (install != null && process.exitValue() != 0 && !command.contains("-t")) {
                throw new AssertionError(label() + ": " + String.join(" ", command) + " exited "
                        + process.exitValue() + ":\n" + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the output of " + command, e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError(label() + ": interrupted while running " + command, e);
        }
    }
}
