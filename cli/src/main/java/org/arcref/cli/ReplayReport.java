package org.arcref.cli;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.arcref.conformance.JsonWriter;

/** Renders replay results as aligned text tables or as one JSON document. */
final class ReplayReport {

    private ReplayReport() {
    }

    static String table(String source, long requests, long warmup, long unique, int repeat, List<Policy> policies,
            List<Integer> sizes, List<ReplayResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "arc replay: %s, %,d requests, %,d unique pages%n", source, requests,
                unique));
        if (warmup > 0) {
            sb.append(String.format(Locale.ROOT, "warm-up: the first %,d requests fill the cache, not counted; hit "
                    + "ratios count the other %,d%n", warmup, requests - warmup));
        }
        sb.append('\n');
        sb.append("hit ratio (%) by cache size (pages)\n");
        section(sb, policies, sizes, results, r -> String.format(Locale.ROOT, "%.2f", r.hitRatioPercent()));
        sb.append(String.format(Locale.ROOT, "%nspeed (million requests/s, fastest of %d replay%s)%n", repeat,
                repeat == 1 ? "" : "s"));
        section(sb, policies, sizes, results, r -> String.format(Locale.ROOT, "%.2f", r.requestsPerSecond() / 1e6));
        return sb.toString();
    }

    private static void section(StringBuilder sb, List<Policy> policies, List<Integer> sizes,
            List<ReplayResult> results, java.util.function.Function<ReplayResult, String> cell) {
        sb.append(String.format(Locale.ROOT, "%10s", "size"));
        for (Policy p : policies) {
            sb.append(String.format(Locale.ROOT, "%12s", p.label()));
        }
        sb.append('\n');
        for (int size : sizes) {
            sb.append(String.format(Locale.ROOT, "%10d", size));
            for (Policy p : policies) {
                ReplayResult r = results.stream().filter(x -> x.policy() == p && x.pages() == size).findFirst()
                        .orElseThrow();
                sb.append(String.format(Locale.ROOT, "%12s", cell.apply(r)));
            }
            sb.append('\n');
        }
    }

    static String json(String source, long requests, long warmup, long unique, int repeat, boolean interrupted,
            List<ReplayResult> results) {
        String rows = results.stream().map(r -> String.format(Locale.ROOT,
                "{\"policy\":\"%s\",\"pages\":%d,\"hits\":%d,\"hitRatioPercent\":%.4f,\"requestsPerSecond\":%.0f}",
                r.policy().label(), r.pages(), r.hits(), r.hitRatioPercent(), r.requestsPerSecond()))
                .collect(Collectors.joining(",\n    "));
        String counted = warmup > 0 ? String.format(Locale.ROOT, "  \"warmupRequests\": %d,\n  \"countedRequests\": "
                + "%d,\n", warmup, requests - warmup) : "";
        return String.format(Locale.ROOT,
                "{\n  \"source\": %s,\n  \"requests\": %d,\n%s  \"uniquePages\": %d,\n  \"repetitions\": %d,%n"
                        + "  \"interrupted\": %b,\n  \"results\": [\n    %s\n  ]\n}",
                JsonWriter.write(source), requests, counted, unique, repeat, interrupted, rows);
    }

    /** The columns of {@link #csv}. */
    static final String CSV_HEADER = "policy,pages,requests,warmup_requests,hits,hit_ratio_percent,requests_per_second";

    /**
     * @param results the replays
     * @return a csv table: {@link #CSV_HEADER}, then one row per replay, numbers without grouping, the hit ratio with
     *     4 decimals, the speed in whole requests per second; {@code requests} counts the requests replayed, the
     *     hit ratio is of the {@code requests - warmup_requests} counted
     */
    static String csv(List<ReplayResult> results) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        for (ReplayResult r : results) {
            sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.4f,%.0f%n", r.policy().label(), r.pages(),
                    r.requests(), r.requests() - r.counted(), r.hits(), r.hitRatioPercent(), r.requestsPerSecond()));
        }
        return sb.toString();
    }

    static String concurrentTable(String source, long requests, long unique, int threads,
            List<ConcurrentReplayResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "arc replay: %s, %,d requests, %,d unique pages%n", source, requests,
                unique));
        sb.append(String.format(Locale.ROOT, "concurrent ARC (default mode, evict zthr), %d thread%s, requests "
                + "interleaved%n%n", threads, threads == 1 ? "" : "s"));
        sb.append(String.format(Locale.ROOT, "%10s %10s %10s %12s %12s %12s %12s %14s%n", "size", "hit %", "M req/s",
                "evict waits", "wait p50 us", "wait p99 us", "wait max us", "aggsum gap"));
        for (ConcurrentReplayResult r : results) {
            sb.append(String.format(Locale.ROOT, "%10d %10.2f %10.2f %12d %12.1f %12.1f %12.1f %14d%n", r.pages(),
                    r.hitRatioPercent(), r.requestsPerSecond() / 1e6, r.evictionWaits().count(),
                    r.evictionWaits().percentile(0.5) / 1e3, r.evictionWaits().percentile(0.99) / 1e3,
                    r.evictionWaits().max() / 1e3, r.maxAggsumGap()));
        }
        sb.append("(aggsum gap: the largest sampled upper - lower bound of arc_size, in bytes; a page is 4096)\n");
        return sb.toString();
    }

    static String concurrentJson(String source, long requests, long unique, int threads, boolean interrupted,
            List<ConcurrentReplayResult> results) {
        String rows = results.stream().map(r -> String.format(Locale.ROOT,
                "{\"pages\":%d,\"requests\":%d,\"hits\":%d,\"hitRatioPercent\":%.4f,\"requestsPerSecond\":%.0f,"
                        + "\"evictWaits\":%d,\"evictWaitP50Nanos\":%d,\"evictWaitP99Nanos\":%d,"
                        + "\"evictWaitMaxNanos\":%d,\"maxAggsumGapBytes\":%d}",
                r.pages(), r.requests(), r.hits(), r.hitRatioPercent(), r.requestsPerSecond(),
                r.evictionWaits().count(), r.evictionWaits().percentile(0.5), r.evictionWaits().percentile(0.99),
                r.evictionWaits().max(), r.maxAggsumGap()))
                .collect(Collectors.joining(",\n    "));
        return String.format(Locale.ROOT,
                "{\n  \"source\": %s,\n  \"requests\": %d,\n  \"uniquePages\": %d,\n  \"threads\": %d,%n"
                        + "  \"partition\": \"interleaved\",\n  \"interrupted\": %b,\n  \"results\": [\n    %s\n  ]\n}",
                JsonWriter.write(source), requests, unique, threads, interrupted, rows);
    }
}
