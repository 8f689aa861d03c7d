package org.arcref.bench.evictor;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.arcref.bench.DriverCommand;
import org.arcref.zthr.ZthrPriority;

/**
 * Experiment E1: runs {@link EvictorWorkload} in a fresh JVM for each evictor priority, each flag mode and each
 * repetition, collects their CSV lines into one file and prints a summary with the spread over repetitions and
 * the throughput ratios against {@code minclsyspri} (also written to {@code OUT-summary.txt} beside the CSV).
 *
 * <p>Flag modes: {@code honoured} runs the JVM with {@code -XX:ThreadPriorityPolicy=1
 * -XX:JavaPriority1_To_OSPriority=19} (Java priorities 1, 5, 10 at nice 19, 0, -5; needs root), {@code control}
 * without them (every thread at nice 0). Within a repetition the priorities run one after the other, so that a
 * slow drift of the machine's load spreads over all of them.
 *
 * <p>Usage: {@code EvictorPriorityExperiment OUT.csv [--reps N] [--warmup S] [--seconds S]} (defaults 3, 2, 5).
 */
public final class EvictorPriorityExperiment {

    /** The JVM flags of each mode, in the order run. */
    static final Map<String, List<String>> MODES = new LinkedHashMap<>();

    static {
        MODES.put("honoured", List.of("-XX:ThreadPriorityPolicy=1", "-XX:JavaPriority1_To_OSPriority=19"));
        MODES.put("control", List.of());
    }

    /** The command line: {@code OUT.csv [--reps N] [--warmup S] [--seconds S]}. */
    public static final DriverCommand COMMAND = new DriverCommand(
            "EvictorPriorityExperiment OUT.csv [--reps N] [--warmup S] [--seconds S]", 1, Integer.MAX_VALUE,
            EvictorPriorityExperiment::drive);

    private EvictorPriorityExperiment() {
    }

    /**
     * Runs the experiment; see the class comment for the arguments.
     *
     * @param args {@code OUT.csv [--reps N] [--warmup S] [--seconds S]}
     * @throws Exception if a child JVM fails or the CSV cannot be written
     */
    public static void main(String[] args) throws Exception {
        COMMAND.main(args);
    }

    private static void drive(String[] args) throws IOException, InterruptedException {
        Path out = Path.of(args[0]);
        int reps = 3;
        double warmup = 2;
        double seconds = 5;
        for (int i = 1; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw DriverCommand.bad(args[i], "must be followed by a value", "the end");
            }
            switch (args[i]) {
                case "--reps" -> reps = DriverCommand.integer("--reps", args[i + 1], 1);
                case "--warmup" -> warmup = DriverCommand.seconds("--warmup", args[i + 1], false);
                case "--seconds" -> seconds = DriverCommand.seconds("--seconds", args[i + 1], true);
                default -> throw DriverCommand.bad("option", "must be --reps, --warmup or --seconds", args[i]);
            }
        }
        List<String[]> rows = run(out, reps, warmup, seconds, Arrays.asList(ZthrPriority.values()));
        String summary = summary(rows);
        System.out.print(summary);
        Files.writeString(out.resolveSibling(out.getFileName().toString().replaceFirst("\\.csv$", "")
                + "-summary.txt"), summary);
    }

    /**
     * Runs every mode × repetition × priority in a child JVM and writes the CSV ({@code mode,rep,} followed by
     * {@link EvictorWorkload#HEADER}'s columns).
     *
     * @return the rows, split into columns
     */
    static List<String[]> run(Path out, int reps, double warmup, double seconds, List<ZthrPriority> priorities)
            throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        lines.add("mode,rep," + EvictorWorkload.HEADER);
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, List<String>> mode : MODES.entrySet()) {
            for (int rep = 1; rep <= reps; rep++) {
                for (ZthrPriority p : priorities) {
                    String line = mode.getKey() + "," + rep + "," + runChild(mode.getValue(), p, warmup, seconds);
                    System.err.println(line);
                    lines.add(line);
                    rows.add(line.split(","));
                }
            }
        }
        DriverCommand.writeLines(out, lines);
        return rows;
    }

    private static String runChild(List<String> flags, ZthrPriority priority, double warmup, double seconds)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-Xmx1g");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(EvictorWorkload.class.getName());
        command.add(priority.name());
        command.add(Double.toString(warmup));
        command.add(Double.toString(seconds));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> output = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = reader.readLine(); l != null; l = reader.readLine()) {
                output.add(l);
            }
        }
        int status = process.waitFor();
        if (status != 0 || output.size() != 2 || !output.get(0).equals(EvictorWorkload.HEADER)) {
            throw new IllegalStateException("child JVM " + command + " must exit 0 with a header and one CSV line, "
                    + "exited " + status + " with " + output);
        }
        return output.get(1);
    }

    /** Mean, standard deviation, minimum and maximum of each measure per mode and priority, and the ratios. */
    static String summary(List<String[]> rows) {
        String[] header = ("mode,rep," + EvictorWorkload.HEADER).split(",");
        int[] measures = {index(header, "opsPerSecond"), index(header, "allocP50us"), index(header, "allocP99us"),
            index(header, "allocMaxUs"), index(header, "evictWaits"), index(header, "evictorCpuMs")};
        StringBuilder sb = new StringBuilder("# E1: mean ± sd [min..max] over repetitions\n");
        sb.append(String.format(Locale.ROOT, "%-9s %-12s %-5s", "mode", "priority", "nice"));
        for (int m : measures) {
            sb.append(String.format(Locale.ROOT, " %-34s", header[m]));
        }
        sb.append('\n');
        Map<String, Double> meanThroughput = new LinkedHashMap<>();
        for (String mode : MODES.keySet()) {
            for (ZthrPriority p : ZthrPriority.values()) {
                List<String[]> group = rows.stream().filter(r -> r[0].equals(mode) && r[2].equals(p.name())).toList();
                if (group.isEmpty()) {
                    continue;
                }
                String nice = group.stream().map(r -> r[r.length - 1]).distinct().reduce((a, b) -> a + "/" + b)
                        .orElse("NA");
                sb.append(String.format(Locale.ROOT, "%-9s %-12s %-5s", mode, p.name(), nice));
                for (int m : measures) {
                    double[] v = group.stream().mapToDouble(r -> Double.parseDouble(r[m])).toArray();
                    double mean = Arrays.stream(v).average().orElse(Double.NaN);
                    double sd = Math.sqrt(Arrays.stream(v).map(x -> (x - mean) * (x - mean)).sum()
                            / Math.max(1, v.length - 1));
                    sb.append(String.format(Locale.ROOT, " %-34s", String.format(Locale.ROOT, "%.1f ± %.1f [%.1f..%.1f]",
                            mean, sd, Arrays.stream(v).min().orElse(0), Arrays.stream(v).max().orElse(0))));
                    if (m == measures[0]) {
                        meanThroughput.put(mode + " " + p.name(), mean);
                    }
                }
                sb.append('\n');
            }
        }
        sb.append("# E1: mean throughput / mean throughput at MINCLSYSPRI, same run\n");
        for (String mode : MODES.keySet()) {
            Double min = meanThroughput.get(mode + " " + ZthrPriority.MINCLSYSPRI.name());
            for (ZthrPriority p : ZthrPriority.values()) {
                Double v = meanThroughput.get(mode + " " + p.name());
                if (min != null && v != null && p != ZthrPriority.MINCLSYSPRI) {
                    sb.append(String.format(Locale.ROOT, "%-9s %s / MINCLSYSPRI %.3f%n", mode, p.name(), v / min));
                }
            }
        }
        return sb.toString();
    }

    private static int index(String[] header, String column) {
        int i = Arrays.asList(header).indexOf(column);
        if (i < 0) {
            throw new IllegalStateException("column " + column + " must be in the header, was missing");
        }
        return i;
    }
}
