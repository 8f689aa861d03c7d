package org.arcref.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.arcref.conformance.JsonWriter;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Checker;
import org.arcref.explore.ExploreResult;
import org.arcref.explore.Explorer;
import org.arcref.explore.Failure;
import org.arcref.explore.FailureTrace;
import org.arcref.explore.Shard;
import org.arcref.explore.Verdict;
import org.arcref.oracle.OracleComparison;
import org.arcref.oracle.OracleProcess;
import org.arcref.trace.OpTraceReader;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsRelease;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arc explore}: runs the spec's invariants, the spec-vs-concurrent differential, the canonical ARC's C1 check
 * and (when named) the spec-vs-arc.c oracle check on random operation sequences ({@link Explorer}), or replays one trace through one check
 * ({@code --trace}), or explores exhaustively ({@code --exhaustive}, {@link ExhaustiveExplore}). On a failure it
 * shrinks the sequence, writes it as an op trace and exits with {@link ExitCode#FINDING}.
 */
@Command(name = "explore", mixinStandardHelpOptions = true,
        description = {"Run the ARC checks on random operation sequences; shrink a failure to an op trace.",
                "",
                "Checks (--checks):",
                "  invariants    R1-R13 after every operation of the spec",
                "  differential  D1: the concurrent ARC in deterministic mode gives the spec's",
                "                outcome and snapshot after every operation",
                "  canonical     C1 for the canonical ARC and R1-R13 for the spec in page mode;",
                "                their hits must agree only while the distinct pages fit",
                "  oracle        the spec's conformance output equals the real arc.c's",
                "                (zfs-2.1.1, or the release of --zfs) after every operation;",
                "                its tries are the engine's of that release",
                "                (needs the oracle binary, docs/oracle.md; not a default)",
                "Try t of --seed S is fixed by S and t: the same seed reproduces every try;",
                "--shard i/n runs the tries t with t %% n == i. A failure is shrunk and written",
                "as an op trace named on stderr (exit status 1). The seed is printed on stderr",
                "when the run starts; progress goes to stderr; Ctrl-C stops with a one-line",
                "summary (exit status 130).",
                "--exhaustive instead visits every reachable state of the spec on a tiny",
                "configuration, breadth-first (X1), and writes a violation's shortest",
                "counterexample as an op trace (exit status 1)."},
        footer = {"", "Examples:", "  arc explore --tries 2000 --seed 7",
                "  mkdir -p failures",
                "  arc explore --duration 10m --shard 2/8 --seed 42 --out failures/",
                "  arc explore --checks differential --tries 500 --json",
                "  arc explore --checks oracle --tries 2000",
                "  arc explore --checks oracle --zfs 2.1.16 --oracle arc-oracle-2.1.16",
                "  arc explore --checks oracle --zfs 2.2.0 --tries 2000",
                "  arc explore --check differential --try-seed 123 --trace t.trace",
                "  arc explore --exhaustive --depth 8 --keys 3 --json",
                "", "Exit status: 0 all tries passed, 1 a check failed, 2 bad usage or input,",
                "3 internal error, 130 interrupted (see arc --help)."})
final class ExploreCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--tries", paramLabel = "N",
            description = "Size of the try space (default: 1000 unless --duration is given).")
    Long tries;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class,
            description = "Time budget, e.g. 30s, 10m, 2h, at most 876000h; with --tries, whichever ends first.")
    Duration duration;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the try space (default: random, printed).")
    Long seed;

    @Option(names = "--shard", paramLabel = "i/n", defaultValue = "0/1",
            description = "Run only the tries t with t %% n == i (default: ${DEFAULT-VALUE}).")
    String shard;

    @Option(names = "--checks", split = ",", paramLabel = "CHECK",
            description = "Checks to run: invariants, differential, canonical, oracle (default: all but oracle).")
    List<CheckKind> checks = CheckKind.DEFAULTS;

    @Option(names = "--oracle", paramLabel = "BINARY",
            description = "The arc-oracle binary the oracle check runs (default: oracle/target/arc-oracle-RELEASE, "
                    + "RELEASE that of --zfs; docs/oracle.md).")
    Path oracle;

    @Option(names = "--zfs", paramLabel = "RELEASE",
            description = "With the oracle check: the release the oracle binary's arc.c is, 2.1.1 (the default), "
                    + "2.1.16, 2.2.0 or 2.2.11; the spec runs its engine and follows it (applies the fixes it "
                    + "shipped, as arc conform --zfs does), and the oracle check's tries are that engine's.")
    String zfs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = ".",
            description = "Directory for the failure trace (default: the current directory).")
    Path out;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Replay this op trace (a file, or - for standard input) through --check on the "
                    + "configuration of --try-seed, instead of exploring.")
    Path trace;

    @Option(names = "--check", paramLabel = "CHECK", description = "The check for --trace.")
    CheckKind check;

    @Option(names = "--try-seed", paramLabel = "T", description = "The try seed for --trace (printed on failure).")
    Long trySeed;

    @Option(names = "--json", description = "Print the summary (or the exhaustive result) as one JSON object "
            + "instead of lines.")
    boolean json;

    /** {@code --exhaustive} and its options (X1), run by {@link ExhaustiveExplore}. */
    @Mixin
    ExhaustiveExplore exhaustive = new ExhaustiveExplore();

    private final Checker checker;

    ExploreCommand() {
        this(new Checker());
    }

    /** @param checker runs the checks; a seam through which tests substitute a broken implementation */
    ExploreCommand(Checker checker) {
        this.checker = checker;
    }

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (exhaustive.requested()) {
            return exhaustive.run(spec, out, json);
        }
        exhaustive.rejectOptionsWithoutExhaustive(spec);
        boolean needsOracle = trace != null ? check == CheckKind.ORACLE : checks.contains(CheckKind.ORACLE);
        if (!needsOracle) {
            GivenOptions.reject(spec, "without the oracle check", "--oracle", "--zfs");
        }
        ZfsRelease release = ZfsOption.release(zfs);
        Path binary = oracle != null ? oracle : Path.of("oracle/target/arc-oracle-" + release.version());
        try (OracleProcess process = needsOracle ? OracleProcess.start(binary) : null) {
            Checker active = process == null ? checker
                    : checker.withOracle(new OracleComparison(process, release.engine(), release.fixes()));
            if (trace != null) {
                GivenOptions.reject(spec, "with --trace (it replays one trace, not random tries)", "--tries",
                        "--duration", "--seed", "--shard", "--checks", "--out", "--json");
                return replay(stdout, active);
            }
            return explore(stdout, err, active, release);
        }
    }

    private int explore(PrintWriter stdout, PrintWriter err, Checker active, ZfsRelease release) {
        GivenOptions.reject(spec, "without --trace", "--check", "--try-seed");
        if (tries != null && tries < 1) {
            throw new IllegalArgumentException("--tries must be >= 1, was " + tries);
        }
        OutputFolder.requireDirectory("--out", out);
        long s = seed != null ? seed : System.nanoTime() ^ System.identityHashCode(this);
        long space = tries != null ? tries : duration == null ? 1000 : 0;
        Shard part = Shard.parse(shard);
        Explorer.Plan plan = new Explorer.Plan(s, part, space, duration == null ? 0 : duration.toNanos(),
                checks.stream().distinct().toList());
        long planned = space > 0 ? part.triesOf(space) : 0;
        if (space > 0 && planned == 0) {
            throw new IllegalArgumentException("--shard " + part + " has no tries of --tries " + space
                    + " (a shard i/n runs the tries t < " + space + " with t % n == i)");
        }
        err.println("arc explore: seed " + s + ", shard " + part + (space > 0 ? ", " + planned + " tries" : "")
                + (duration != null ? ", up to " + duration.toSeconds() + " s" : ""));
        err.flush();
        Progress progress = new Progress(err, "arc explore", Progress.onTerminal());
        long start = System.nanoTime();
        ExploreResult result;
        result = new Explorer(active, plan).run(Interruption::requested, done -> progress.update(
                fraction(done, planned, System.nanoTime() - start, plan.nanos()),
                planned > 0 ? done + "/" + planned + " tries" : done + " tries"));
        progress.finish();
        Path failureTrace = null;
        if (result.failure() != null) {
            Path file = out.resolve(FailureTrace.fileName(s, result.failure()));
            try {
                FailureTrace.write(file, s, result.failure(), release);
                failureTrace = file;
            } catch (UncheckedIOException e) {
                // the finding stands (exit status 1); only its trace file is lost
                err.println("arc explore: " + e.getMessage());
            }
        }
        stdout.println(json ? json(plan, result, failureTrace) : summary(plan, result));
        stdout.flush();
        if (result.failure() != null) {
            report(err, s, result.failure(), release, failureTrace);
        }
        return result.failure() != null ? ExitCode.FINDING
                : result.interrupted() ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    private static double fraction(long done, long planned, long elapsed, long budget) {
        double byTries = planned > 0 ? (double) done / planned : 0;
        double byTime = budget > 0 ? (double) elapsed / budget : 0;
        return Math.max(byTries, byTime);
    }

    private int replay(PrintWriter stdout, Checker active) {
        if (check == null || trySeed == null) {
            throw new IllegalArgumentException("--trace needs --check and --try-seed (printed with the failure), was "
                    + (check == null ? "without --check" : "without --try-seed"));
        }
        List<Operation> ops = InputFile.read(trace, "trace file", ArcCommand.stdin(spec), OpTraceReader::read);
        if (ops.isEmpty()) {
            throw new IllegalArgumentException("trace file " + InputFile.name(trace) + " has no operations; "
                    + "nothing to check");
        }
        Verdict v = active.check(check, Explorer.tryOf(check, active.oracleEngine(), trySeed).settings(), ops);
        if (v.status() == Verdict.Status.INVALID) {
            throw new IllegalArgumentException("trace file " + InputFile.name(trace) + ": " + v.firstLine()
                    + "; nothing checked (--check " + check.label() + ")");
        }
        stdout.println("arc explore: " + check.label() + " on " + InputFile.name(trace) + " (" + ops.size()
                + " operations, try seed " + trySeed + "): " + (v.failed() ? "FAILED: " + v.firstLine() : "passed"));
        stdout.flush();
        return v.failed() ? ExitCode.FINDING : ExitCode.SUCCESS;
    }

    private static void report(PrintWriter err, long s, Failure f, ZfsRelease release, Path file) {
        err.println("arc explore: " + f.check().label() + " failed on try " + f.tryIndex() + " (seed " + s
                + ", try seed " + f.trySeed() + "): " + f.original().firstLine());
        err.println("arc explore: shrunk " + f.originalOps().size() + " -> " + f.shrunkOps().size()
                + " operations (" + f.shrunk().firstLine() + "); trace: " + (file == null ? "not written" : file));
        if (file != null) {
            err.println("arc explore: reproduce with: " + FailureTrace.reproduce(f, release, file));
        }
        err.flush();
    }

    private static String json(Explorer.Plan plan, ExploreResult r, Path failureTrace) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("seed", plan.seed());
        o.put("shard", plan.shard().toString());
        o.put("tries", r.tries());
        Map<String, Object> by = new LinkedHashMap<>();
        plan.checks().forEach(c -> by.put(c.label(), r.triesByCheck().getOrDefault(c, 0L)));
        o.put("triesByCheck", by);
        o.put("verdict", r.failure() != null ? "failed" : r.interrupted() ? "interrupted" : "passed");
        o.put("interrupted", r.interrupted());
        o.put("seconds", java.math.BigDecimal.valueOf(r.elapsedNanos() / 1_000_000, 3));
        if (r.failure() != null) {
            Failure f = r.failure();
            Map<String, Object> fo = new LinkedHashMap<>();
            fo.put("check", f.check().label());
            fo.put("try", f.tryIndex());
            fo.put("trySeed", f.trySeed());
            fo.put("message", f.original().firstLine());
            fo.put("operations", f.originalOps().size());
            fo.put("shrunkOperations", f.shrunkOps().size());
            fo.put("trace", failureTrace == null ? null : failureTrace.toString());
            o.put("failure", fo);
        }
        return JsonWriter.write(o);
    }

    private static String summary(Explorer.Plan plan, ExploreResult r) {
        Map<CheckKind, Long> by = r.triesByCheck();
        String perCheck = plan.checks().stream().map(c -> c.label() + " " + by.getOrDefault(c, 0L))
                .collect(Collectors.joining(", "));
        String verdict = r.failure() != null ? "FAILED (" + r.failure().check().label() + ")"
                : r.interrupted() ? "interrupted, no failure so far" : "no failure";
        return String.format(Locale.ROOT, "arc explore: seed %d, shard %s, %d tries (%s): %s, %.1f s", plan.seed(),
                plan.shard(), r.tries(), perCheck, verdict, r.elapsedNanos() / 1e9);
    }
}
