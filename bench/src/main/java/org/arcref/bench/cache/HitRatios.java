package org.arcref.bench.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.arcref.bench.DriverCommand;
import org.arcref.policy.CanonicalArc;
import org.arcref.policy.Lru;
import org.arcref.policy.PageCache;
import org.arcref.policy.Replay;
import org.arcref.trace.TraceReader;
import org.arcref.zfs.ZfsPageCache;

/**
 * Experiment E3, hit ratios: replays every LIRS trace ({@code *.trace.gz} in a directory) through the ZFS spec,
 * {@link ConcurrentArcPageCache} (default mode, one thread), the canonical ARC, LRU and Caffeine, each at the same
 * capacities in pages: {@value #FRACTIONS_TEXT} of the trace's distinct pages. Writes a CSV and prints a table.
 *
 * <p>Usage: {@code HitRatios TRACE_DIR OUT.csv}.
 */
public final class HitRatios {

    private static final String FRACTIONS_TEXT = "10 %, 25 % and 50 %";
    private static final double[] FRACTIONS = {0.10, 0.25, 0.50};
    private static final List<String> POLICIES = List.of("zfs", "concurrent", "canonical", "lru", "caffeine");

    /** One replay's result. */
    record Row(String trace, int pages, String policy, long requests, long hits) {
        double ratio() {
            return 100.0 * hits / requests;
        }
    }

    /** The command line: {@code TRACE_DIR OUT.csv}. */
    public static final DriverCommand COMMAND = new DriverCommand("HitRatios TRACE_DIR OUT.csv", 2, 2, HitRatios::drive);

    private HitRatios() {
    }

    /**
     * Replays the traces and writes the CSV; see the class comment for the arguments.
     *
     * @param args {@code TRACE_DIR OUT.csv}
     * @throws Exception if a trace or the CSV cannot be read or written
     */
    public static void main(String[] args) throws Exception {
        COMMAND.main(args);
    }

    private static void drive(String[] args) throws IOException {
        List<Row> rows = run(traces(DriverCommand.folder("TRACE_DIR", args[0])));
        List<String> csv = new ArrayList<>();
        csv.add("trace,pages,policy,requests,hits,hitRatioPercent");
        rows.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%.3f", r.trace(), r.pages(), r.policy(),
                r.requests(), r.hits(), r.ratio())));
        DriverCommand.writeLines(Path.of(args[1]), csv);
        System.out.print(table(rows));
    }

    /** @return every {@code *.trace.gz} in {@code dir}, in name order; at least one */
    static List<Path> traces(Path dir) throws IOException {
        List<Path> traces;
        try (Stream<Path> list = Files.list(dir)) {
            traces = list.filter(p -> p.getFileName().toString().endsWith(".trace.gz")).sorted().toList();
        }
        if (traces.isEmpty()) {
            throw DriverCommand.bad("TRACE_DIR", "must hold *.trace.gz files", dir + " (none)");
        }
        return traces;
    }

    /** Replays each LIRS trace through every policy at each capacity; rows in trace, capacity, policy order. */
    static List<Row> run(List<Path> traces) {
        List<Row> rows = new ArrayList<>();
        for (Path trace : traces) {
            long[] requests = TraceReader.read(trace);
            long distinct = Arrays.stream(requests).distinct().count();
            String name = trace.getFileName().toString().replace(".trace.gz", "");
            for (double f : FRACTIONS) {
                int pages = (int) Math.max(2, Math.round(distinct * f));
                for (String policy : POLICIES) {
                    rows.add(new Row(name, pages, policy, requests.length, replay(policy, pages, requests)));
                }
            }
        }
        return rows;
    }

    private static long replay(String policy, int pages, long[] requests) {
        IntFunction<PageCache> factory = switch (policy) {
            case "zfs" -> ZfsPageCache::zfs;
            case "canonical" -> CanonicalArc::new;
            case "lru" -> Lru::new;
            case "caffeine" -> CaffeinePageCache::new;
            case "concurrent" -> null;
            default -> throw new IllegalArgumentException("policy must be one of " + POLICIES + ", was " + policy);
        };
        if (factory == null) {
            try (ConcurrentArcPageCache arc = new ConcurrentArcPageCache(pages)) {
                return Replay.hits(arc, requests);
            }
        }
        return Replay.hits(factory.apply(pages), requests);
    }

    /** One line per trace and size, hit ratios in percent, policies as columns. */
    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-9s %7s", "trace", "pages"));
        POLICIES.forEach(p -> sb.append(String.format(Locale.ROOT, " %10s", p)));
        sb.append('\n');
        for (int i = 0; i < rows.size(); i += POLICIES.size()) {
            Row first = rows.get(i);
            sb.append(String.format(Locale.ROOT, "%-9s %7d", first.trace(), first.pages()));
            for (int j = 0; j < POLICIES.size(); j++) {
                sb.append(String.format(Locale.ROOT, " %10.2f", rows.get(i + j).ratio()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
