package org.arcref.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one JMH experiment (E2 aggsum, E2 arc_p, E3 cache) at each of several thread counts in one command, writes
 * JMH's JSON per thread count and prints a summary: every score, then the experiment's ratios, each computed from
 * two scores of the same run.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar org.arcref.bench.JmhExperiment EXPERIMENT OUTDIR
 * [--threads 1,2,4] [--smoke | --quick] [--param NAME=V1,V2]...}, with {@code EXPERIMENT} one of
 * {@link Experiment}'s names in lower case with dashes ({@code e2-aggsum}, {@code e2-arcp}, {@code e3-cache}).
 * {@code --param} restricts a benchmark parameter to the values given, as JMH's {@code -p}.
 * <ul>
 *   <li>Full mode: 1 fork, 3 warm-up and 5 measured iterations of 1 s; prints every score and the ratios.</li>
 *   <li>Quick mode: 1 fork, 3 warm-up iterations of 1 s (as in full mode: the ARC needs them to fill its cache
 *       and be compiled) and 3 measured of 0.5 s; prints the ratios only. A regression
 *       guard to run by hand before and after a change: a ratio that moves by a factor is worth a full run, a
 *       few tens of percent are within this mode's noise on a shared machine.</li>
 *   <li>Smoke mode: in-process (no fork), no warm-up, one iteration of 50 ms; it proves that the benchmarks run,
 *       not how fast.</li>
 * </ul>
 */
public final class JmhExperiment {

    /** A score and its 99.9 % confidence half-width (NaN when JMH gives none), in the benchmark's unit. */
    public record Score(double value, double error, String unit) {
    }

    /** How long each benchmark runs; see the class comment. */
    public enum Mode {
        FULL, QUICK, SMOKE
    }

    /** The command line: {@code EXPERIMENT OUTDIR [--threads 1,2,4] [--smoke | --quick] [--param NAME=V1,V2]...}. */
    public static final DriverCommand COMMAND = new DriverCommand(
            "JmhExperiment EXPERIMENT OUTDIR [--threads 1,2,4] [--smoke | --quick] [--param NAME=V1,V2]...", 2,
            Integer.MAX_VALUE, JmhExperiment::drive);

    private JmhExperiment() {
    }

    /**
     * Runs the experiment named on the command line; see the class comment for the arguments.
     *
     * @param args {@code EXPERIMENT OUTDIR [--threads 1,2,4] [--smoke | --quick] [--param NAME=V1,V2]...}
     * @throws Exception if JMH fails
     */
    public static void main(String[] args) throws Exception {
        COMMAND.main(args);
    }

    private static void drive(String[] args) throws RunnerException {
        Experiment experiment = Experiment.byName(args[0]);
        Path out = Path.of(args[1]);
        int[] threads = {1, 2, 4};
        Mode mode = Mode.FULL;
        Map<String, String[]> params = new LinkedHashMap<>();
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--smoke" -> mode = Mode.SMOKE;
                case "--quick" -> mode = Mode.QUICK;
                case "--threads" -> threads = parseThreads(valueAfter(args, i++));
                case "--param" -> {
                    String p = valueAfter(args, i++);
                    int eq = p.indexOf('=');
                    if (eq < 1 || eq == p.length() - 1) {
                        throw DriverCommand.bad("--param", "must be NAME=V1,V2", p);
                    }
                    params.put(p.substring(0, eq), p.substring(eq + 1).split(","));
                }
                default -> throw DriverCommand.bad("option", "must be --threads LIST, --smoke, --quick or --param "
                        + "NAME=VALUES", args[i]);
            }
        }
        Map<String, Score> scores = run(experiment, out, threads, mode, params);
        String summary = summary(experiment, scores);
        System.out.print(mode == Mode.QUICK ? summary.substring(summary.indexOf("# " + experiment.fileName()
                + ": ratios")) : summary);
        write(out.resolve(experiment.fileName() + "-summary.txt"), summary);
    }

    private static String valueAfter(String[] args, int i) {
        if (i + 1 >= args.length) {
            throw DriverCommand.bad(args[i], "must be followed by a value", "the end");
        }
        return args[i + 1];
    }

    /**
     * Runs the experiment at each thread count, writing {@code OUTDIR/<experiment>-t<N>.json}.
     *
     * @param params benchmark parameters restricted to the values given (JMH's {@code -p})
     * @return every primary score, keyed by {@link #key}
     */
    public static Map<String, Score> run(Experiment experiment, Path out, int[] threads, Mode mode,
            Map<String, String[]> params) throws RunnerException {
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Score> scores = new TreeMap<>();
        for (int t : threads) {
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(experiment.includePattern())
                    .threads(t)
                    .resultFormat(ResultFormatType.JSON)
                    .result(out.resolve(experiment.fileName() + "-t" + t + ".json").toString());
            params.forEach(options::param);
            switch (mode) {
                case SMOKE -> options.forks(0).warmupIterations(0).measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(50));
                case QUICK -> options.forks(1).warmupIterations(3).warmupTime(TimeValue.seconds(1))
                        .measurementIterations(3).measurementTime(TimeValue.milliseconds(500))
                        .verbosity(VerboseMode.SILENT);
                case FULL -> options.forks(1).warmupIterations(3).warmupTime(TimeValue.seconds(1))
                        .measurementIterations(5).measurementTime(TimeValue.seconds(1));
            }
            for (RunResult r : new Runner(options.build()).run()) {
                Result<?> primary = r.getPrimaryResult();
                scores.put(key(r, t), new Score(primary.getScore(), primary.getScoreError(), primary.getScoreUnit()));
                for (Map.Entry<String, Result> e : r.getSecondaryResults().entrySet()) {
                    Result<?> s = e.getValue();
                    scores.put(key(r, t) + " :" + e.getKey(),
                            new Score(s.getScore(), s.getScoreError(), s.getScoreUnit()));
                }
            }
        }
        return scores;
    }

    /** {@code method param=value... t=N}, the name a score has in the summary and in ratios. */
    static String key(RunResult r, int threads) {
        StringBuilder sb = new StringBuilder(r.getParams().getBenchmark().replaceAll(".*\\.", ""));
        for (String p : new TreeMap<>(paramMap(r)).keySet()) {
            sb.append(' ').append(p).append('=').append(r.getParams().getParam(p));
        }
        return sb.append(" t=").append(threads).toString();
    }

    private static Map<String, String> paramMap(RunResult r) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String p : r.getParams().getParamsKeys()) {
            m.put(p, r.getParams().getParam(p));
        }
        return m;
    }

    /** The scores and the experiment's ratios as text. */
    static String summary(Experiment experiment, Map<String, Score> scores) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(experiment.fileName()).append(": scores\n");
        scores.forEach((k, s) -> sb.append(String.format(Locale.ROOT, "%-60s %14.3f ± %10.3f %s%n", k, s.value(),
                s.error(), s.unit())));
        sb.append("# ").append(experiment.fileName()).append(": ratios (numerator / denominator, same run)\n");
        for (Experiment.Ratio ratio : experiment.ratios()) {
            for (String k : new ArrayList<>(scores.keySet())) {
                if (!k.startsWith(ratio.numerator() + " ") || k.contains(" :")) {
                    continue;
                }
                String rest = k.substring(ratio.numerator().length());
                Score den = scores.get(ratio.denominator() + rest);
                if (den != null) {
                    sb.append(String.format(Locale.ROOT, "%-60s %8.3f%n",
                            ratio.numerator() + " / " + ratio.denominator() + rest,
                            scores.get(k).value() / den.value()));
                }
            }
        }
        return sb.toString();
    }

    private static int[] parseThreads(String list) {
        List<Integer> values = new ArrayList<>();
        for (String part : list.split(",")) {
            int t;
            try {
                t = Integer.parseInt(part.trim());
            } catch (NumberFormatException e) {
                t = 0;
            }
            if (t < 1) {
                throw DriverCommand.bad("--threads", "must be a list of positive integers", list);
            }
            values.add(t);
        }
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
