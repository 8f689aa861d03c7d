package org.arcref.models;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One proof attempt of a WhyML model by {@code why3 prove} with cvc5, every goal split into its sub-goals
 * ({@code split_vc}), each under the same time limit: the result of every sub-goal, as Why3 reports it.
 * A model's broken variants are boolean constants declared {@code let constant NAME : bool = false}; {@link #flag}
 * proves a copy in which one of them is {@code true}.
 *
 * <p>Why3 runs with only the configuration in the model folder ({@code why3 -C provers.conf}), which declares
 * cvc5, so a user's own Why3 configuration changes nothing. A missing {@code why3} or {@code cvc5} fails with the
 * command that installs it, as a missing {@code spin} does in {@link SpinCheck}.
 *
 * <p>Implementation overview. The model folder ({@code models.why3}, default {@code src/test/why3}) is copied to a
 * folder of its own under {@code models.work} (default {@code target/spin}), with the flag's constant rewritten;
 * {@code why3 prove} runs there and its report is read: every sub-goal is a block of a {@code File ...} line, a
 * {@code Goal NAME.} or {@code Sub-goal KIND of goal NAME'vc.} line and a {@code Prover result is: STATUS} line.
 */
public final class Why3Proof {
    /** Seconds each sub-goal may take; cvc5 proves each of aggsum.mlw's in under a second on an idle core. */
    public static final int TIME_LIMIT_SECONDS = 10;
    private static final long RUN_TIMEOUT_SECONDS = 1200;
    private static final Pattern RESULT = Pattern.compile(
            "File \"[^\"]*\", line (\\d+), characters [^\\n]*\\n"
                    + "(?:Sub-goal (.+?) of goal ([A-Za-z0-9_']+?)(?:'vc)?\\.|Goal ([A-Za-z0-9_']+?)(?:'vc)?\\.)\\n"
                    + "Prover result is: ([^\\n]*)");

    /** The result of one sub-goal: the goal's name, what part of it (null for a whole goal), its line, Why3's verdict. */
    public record Result(String goal, String part, int line, String verdict) {
        /** Whether cvc5 proved it. */
        public boolean proved() {
            return verdict.startsWith("Valid");
        }

        @Override
        public String toString() {
            return goal + (part == null ? "" : " (" + part + ")") + " at line " + line + ": " + verdict;
        }
    }

    private final String model;
    private final String flag;

    private Why3Proof(String model, String flag) {
        this.model = model;
        this.flag = flag;
    }

    /** The model file {@code model} of the model folder, as it is. */
    public static Why3Proof of(String model) {
        return new Why3Proof(model, null);
    }

    /** A copy of this model with the constant {@code name} set to {@code true} (a broken variant). */
    public Why3Proof flag(String name) {
        return new Why3Proof(model, name);
    }

    /** Runs {@code why3 prove} and returns the result of every sub-goal, in Why3's order. */
    public List<Result> prove() {
        Path dir = prepare();
        List<String> command = List.of("why3", "prove", "-C", "provers.conf", "-P", "cvc5",
                "-t", Integer.toString(TIME_LIMIT_SECONDS), "-m", "4000", "-a", "split_vc", model);
        long start = System.nanoTime();
        String out = run(dir, command);
        List<Result> results = new ArrayList<>();
        Matcher m = RESULT.matcher(out);
        while (m.find()) {
            String goal = m.group(3) != null ? m.group(3) : m.group(4);
            results.add(new Result(goal, m.group(2), Integer.parseInt(m.group(1)), m.group(5).strip()));
        }
        if (results.isEmpty()) {
            throw new AssertionError(label() + ": why3 reported no goal (" + String.join(" ", command) + "):\n" + out);
        }
        System.out.printf("[why3] %s: %d sub-goals, %d proved by cvc5 (limit %d s each), %.1f s%n", label(),
                results.size(), results.stream().filter(Result::proved).count(), TIME_LIMIT_SECONDS,
                (System.nanoTime() - start) / 1e9);
        return results;
    }

    private String label() {
        return model + (flag == null ? "" : " with " + flag);
    }

    private Path prepare() {
        Path source = Path.of(System.getProperty("models.why3", "src/test/why3"));
        Path dir = Path.of(System.getProperty("models.work", "target/spin"))
                .resolve("why3-" + label().replaceAll("[^A-Za-z0-9._-]+", "_"));
        try {
            Files.createDirectories(dir);
            Files.copy(source.resolve("provers.conf"), dir.resolve("provers.conf"),
                    StandardCopyOption.REPLACE_EXISTING);
            String text = Files.readString(source.resolve(model), StandardCharsets.UTF_8);
            if (flag != null) {
                String off = "let constant " + flag + " : bool = false";
                if (!text.contains(off)) {
                    throw new IllegalArgumentException(model + " declares no flag '" + off + "'");
                }
                text = text.replace(off, "let constant " + flag + " : bool = true");
            }
            Files.writeString(dir.resolve(model), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the Why3 folder " + dir, e);
        }
        return dir;
    }

    private String run(Path dir, List<String> command) {
        Path log = dir.resolve("why3.out");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("why3 is not installed (" + e.getMessage() + "): install it with 'apt-get"
                    + " install -y why3 cvc5' (Debian/Ubuntu, as root; bash .ci/run does it), or skip the models"
                    + " with -Dmodels.skip=true");
        }
        try {
            if (!process.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(label() + ": why3 ran past " + RUN_TIMEOUT_SECONDS + " s");
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            if (out.contains("exec of 'cvc5' failed")) {
                throw new AssertionError("cvc5 is not installed: install it with 'apt-get install -y cvc5'"
                        + " (Debian/Ubuntu, as root; bash .ci/run does it), or skip the models with"
                        + " -Dmodels.skip=true");
            }
            // why3 exits non-zero when a goal is not proved, which a broken variant expects: prove() judges the report
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while why3 ran", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }
}
