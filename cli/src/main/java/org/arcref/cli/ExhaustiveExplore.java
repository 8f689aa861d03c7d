package org.arcref.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.arcref.arc.ConcurrentArc;
import org.arcref.differential.Lockstep;
import org.arcref.exhaustive.Alphabet;
import org.arcref.exhaustive.ExhaustiveBounds;
import org.arcref.exhaustive.ExhaustiveExplorer;
import org.arcref.exhaustive.ExhaustiveResult;
import org.arcref.exhaustive.Violation;
import org.arcref.zfs.QuirkFix;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code arc explore --exhaustive}: the options and the run of the exhaustive explorer (property X1,
 * {@link ExhaustiveExplorer}), mixed into {@link ExploreCommand}, which only dispatches here. Every state of the spec
 * reachable within the bounds on {@link ExhaustiveBounds#tiny} is visited once and every transition checked
 * (R1–R13, B1, the quirk fixes, D1). Prints a summary (or one JSON object with {@code --json}); progress on
 * standard error; on a violation writes the shortest counterexample as an op trace with its settings as
 * {@code # conform:} lines, which {@code arc conform} replays. Exit status: 0 no violation, 1 a violation, 2 bad
 * usage (including options of random exploration given with {@code --exhaustive}, or these without it), 130
 * interrupted (Ctrl-C, after the summary).
 */
final class ExhaustiveExplore {

    /** Options of random exploration, which exhaustive mode rejects. */
    private static final List<String> RANDOM_ONLY = List.of("--tries", "--duration", "--seed", "--shard", "--checks",
            "--trace", "--check", "--try-seed");
    /** Options of exhaustive mode, which random exploration rejects. */
    private static final List<String> EXHAUSTIVE_ONLY = List.of("--depth", "--keys", "--sublists", "--c-min-blocks",
            "--c-max-blocks", "--free-running-evictor", "--low-memory", "--two-sizes", "--fix", "--max-states");

    @Option(names = "--exhaustive", description = "Explore every reachable state of the spec on a tiny "
            + "configuration, breadth-first, checking R1-R13, B1, the quirk fixes and D1 at every transition (X1).")
    boolean exhaustive;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "7",
            description = "Exhaustive: operations from the empty ARC (default: ${DEFAULT-VALUE}).")
    int depth;

    @Option(names = "--keys", paramLabel = "K", defaultValue = "3",
            description = "Exhaustive: block keys 0..K-1 (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--sublists", paramLabel = "N", defaultValue = "1",
            description = "Exhaustive: sublists per multilist (default: ${DEFAULT-VALUE}).")
    int sublists;

    @Option(names = "--c-min-blocks", paramLabel = "N", defaultValue = "1",
            description = "Exhaustive: arc_c_min in 512-byte blocks (default: ${DEFAULT-VALUE}).")
    int cMinBlocks;

    @Option(names = "--c-max-blocks", paramLabel = "N", defaultValue = "2",
            description = "Exhaustive: arc_c_max in 512-byte blocks (default: ${DEFAULT-VALUE}).")
    int cMaxBlocks;

    @Option(names = "--free-running-evictor", description = "Exhaustive: the evictor runs to quiescence after "
            + "each operation (checks R7 and R13) instead of on 'evict' steps.")
    boolean freeRunningEvictor;

    @Option(names = "--low-memory", description = "Exhaustive: add a free-memory level below arc_sys_free/2 "
            + "(deferred waiter wakeups).")
    boolean lowMemory;

    @Option(names = "--two-sizes", description = "Exhaustive: blocks of 512 B and 1 KiB (SPA_MAXBLOCKSIZE 1 KiB) "
            + "instead of 512 B only.")
    boolean twoSizes;

    @Option(names = "--fix", paramLabel = "QUIRK", description = "Exhaustive: apply a quirk fix (repeatable): "
            + "${COMPLETION-CANDIDATES}.")
    List<QuirkFix> fixes = List.of();

    @Option(names = "--max-states", paramLabel = "N", defaultValue = "2000000",
            description = "Exhaustive: stop after this many distinct states (default: ${DEFAULT-VALUE}); each is "
                    + "kept in memory. Like --depth, a bound: a run it stops exits 0, its summary starting "
                    + "'state bound', and warns on stderr that the deepest level was not fully expanded.")
    long maxStates;

    /** Creates the concurrent ARC of D1; a seam through which tests substitute a broken one. */
    Lockstep.ConcurrentArcs arcs = ConcurrentArc::new;

    /** @return whether {@code --exhaustive} was given */
    boolean requested() {
        return exhaustive;
    }

    /**
     * Rejects this mode's options when {@code --exhaustive} was not given.
     *
     * @param spec the explore command's spec
     * @throws ParameterException naming the first such option
     */
    void rejectOptionsWithoutExhaustive(CommandSpec spec) {
        ParseResult parsed = spec.commandLine().getParseResult();
        for (String option : EXHAUSTIVE_ONLY) {
            if (parsed.hasMatchedOption(option)) {
                throw new ParameterException(spec.commandLine(), option + " applies only with --exhaustive, was "
                        + "given without it");
            }
        }
    }

    /**
     * Runs the exhaustive exploration.
     *
     * @param spec the explore command's spec
     * @param out the directory for a counterexample trace
     * @param json whether to print the result as one JSON object
     * @return the exit status
     * @throws ParameterException on bad usage
     */
    int run(CommandSpec spec, Path out, boolean json) {
        ExhaustiveBounds bounds = bounds(spec, out);
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Progress progress = new Progress(err, "arc explore --exhaustive", Progress.onTerminal());
        ExhaustiveResult result;
        result = new ExhaustiveExplorer(bounds, arcs).run(Interruption::requested, p -> progress.update(-1,
                String.format(Locale.ROOT, "%,d states, %,d transitions, depth %d, %,d to expand", p.states(),
                        p.transitions(), p.depth(), p.frontier())));
        progress.finish();
        report(stdout, err, bounds, result, out, json);
        if (result.stop() == ExhaustiveResult.Stop.STATE_BOUND) {
            err.println("arc explore --exhaustive: stopped at --max-states " + maxStates + ": the states of the"
                    + " deepest level were not all expanded, so the depth reached is not exhausted");
            err.flush();
        }
        return switch (result.stop()) {
            case VIOLATION -> ExitCode.FINDING;
            case INTERRUPTED -> ExitCode.INTERRUPTED;
            default -> ExitCode.SUCCESS;
        };
    }

    private ExhaustiveBounds bounds(CommandSpec spec, Path out) {
        ParseResult parsed = spec.commandLine().getParseResult();
        for (String option : RANDOM_ONLY) {
            if (parsed.hasMatchedOption(option)) {
                throw new ParameterException(spec.commandLine(), option + " does not apply to --exhaustive, was "
                        + "given with it");
            }
        }
        require(spec, depth >= 0 && depth <= 1000, "--depth", "must be in [0, 1000]", depth);
        require(spec, keys >= 1 && keys <= Alphabet.MAX_KEYS, "--keys", "must be in [1, " + Alphabet.MAX_KEYS + "]",
                keys);
        require(spec, sublists >= 1 && sublists <= 1024, "--sublists", "must be in [1, 1024]", sublists);
        require(spec, cMinBlocks >= 1 && cMinBlocks <= 1 << 20, "--c-min-blocks", "must be in [1, 1048576]",
                cMinBlocks);
        require(spec, cMaxBlocks >= cMinBlocks && cMaxBlocks <= 1 << 20, "--c-max-blocks",
                "must be in [--c-min-blocks=" + cMinBlocks + ", 1048576]", cMaxBlocks);
        require(spec, maxStates >= 1 && maxStates <= Integer.MAX_VALUE - 8, "--max-states",
                "must be in [1, " + (Integer.MAX_VALUE - 8) + "]", maxStates);
        OutputFolder.requireDirectory("--out", out);
        return ExhaustiveBounds.tiny(keys, sublists, freeRunningEvictor, cMinBlocks, cMaxBlocks, lowMemory, twoSizes,
                fixes.isEmpty() ? EnumSet.noneOf(QuirkFix.class) : EnumSet.copyOf(fixes), depth, maxStates);
    }

    private static void require(CommandSpec spec, boolean ok, String option, String rule, long value) {
        if (!ok) {
            throw new ParameterException(spec.commandLine(), option + " " + rule + ", was " + value);
        }
    }

    private static void report(PrintWriter stdout, PrintWriter err, ExhaustiveBounds bounds, ExhaustiveResult r,
            Path out, boolean json) {
        Path file = null;
        if (r.violation() != null) {
            Violation v = r.violation();
            Path target = out.resolve("arc-explore-exhaustive-" + v.property() + "-depth"
                    + v.depth() + ".trace");
            try {
                Files.write(target, v.toTrace(bounds));
                file = target;
            } catch (IOException e) {
                // the violation stands (exit status 1) and is printed below; only its trace file is lost
                err.println("arc explore --exhaustive: cannot write trace file " + target + ": " + e.getMessage());
            }
        }
        if (json) {
            stdout.println(r.toJson(bounds));
        } else {
            stdout.println("arc explore --exhaustive: " + r.summary());
            stdout.println("states per depth: " + r.statesPerDepth());
            stdout.println("transitions not reached: " + (r.unreached().isEmpty() ? "none" : r.unreached()));
            if (r.violation() != null) {
                stdout.println(String.join(System.lineSeparator(), r.violation().toTrace(bounds)));
            }
        }
        stdout.flush();
        if (r.violation() != null) {
            Violation v = r.violation();
            err.println("arc explore --exhaustive: " + v.property() + " failed at depth " + v.depth() + ": "
                    + v.firstLine());
            if (file != null) {
                err.println("arc explore --exhaustive: shortest counterexample: " + file + "; replay the spec on it"
                        + " with: arc conform " + file + fixOptions(bounds));
            }
            err.flush();
        }
    }

    private static String fixOptions(ExhaustiveBounds bounds) {
        StringBuilder sb = new StringBuilder();
        bounds.config().fixes().forEach(f -> sb.append(" --fix ").append(f.name()));
        return sb.toString();
    }
}
