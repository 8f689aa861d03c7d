package org.arcref.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.arcref.arc.WaitTimes;
import org.arcref.conformance.JsonWriter;
import org.arcref.report.HtmlReport;
import org.arcref.report.Series;
import org.arcref.report.SvgChart;
import org.arcref.report.Timeline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arc report}: one self-contained HTML file with inline SVG charts of a replay: {@code arc_c}, {@code arc_p}
 * and the state sizes of the spec's zfs-2.1.1 engine over the requests; {@code arc_c}, the state sizes and the
 * fractions {@code arc_meta}, {@code arc_pd}, {@code arc_pm} of its zfs-2.2.0 engine; the hit ratio against cache
 * size for both engines, the canonical ARC and LRU; and with {@code --concurrent N}, the eviction wait times of a
 * concurrent replay.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Write an HTML report with inline SVG charts of a replay.",
                "",
                "Of a block trace or the built-in workload, the self-contained page (no scripts,",
                "no network) charts, over the requests (at --size pages), arc_c, arc_p and the",
                "state sizes of the spec's zfs-2.1.1 engine, and arc_c, the state sizes and the",
                "fractions arc_meta, arc_pd, arc_pm of its zfs-2.2.0 engine; the hit ratio",
                "against cache size of zfs, zfs22, canonical and lru (at --sizes); and with",
                "--concurrent N, how long the N threads of a concurrent replay waited for",
                "eviction."},
        footer = {"", "Examples:", "  arc report --out report.html",
                "  arc report traces/lirs/sprite.trace.gz --size 400 --out sprite.html",
                "  arc report --concurrent 4 --out report.html",
                "  arc report --length 200000 --sizes 500,1000,2000,4000 --out synthetic.html"})
final class ReportCommand implements Callable<Integer> {

    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#17becf"};

    /** The most samples of the timeline chart: far more than a chart's pixels. */
    static final int MAX_POINTS = 100_000;

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--size", paramLabel = "PAGES",
            description = "Cache size of the charts over the requests and of the concurrent replay (default: 1/16 "
                    + "of the unique pages).")
    Integer size;

    @Option(names = "--concurrent", paramLabel = "N",
            description = "Also replay through the concurrent ARC from N threads and chart the eviction waits.")
    Integer concurrent;

    @Option(names = "--points", paramLabel = "N", defaultValue = "600",
            description = "Samples in each chart over the requests, at most " + MAX_POINTS
                    + " (default: ${DEFAULT-VALUE}).")
    int points;

    @Option(names = "--out", paramLabel = "FILE", defaultValue = "arc-report.html",
            description = "The HTML file to write, or - for standard output (default: ${DEFAULT-VALUE}); its folder "
                    + "must exist, and it must not be the TRACE.")
    Path out;

    @Option(names = "--json", description = "Print the report's figures as one JSON object (with a file --out).")
    boolean json;

    @Override
    public Integer call() {
        if (points < 2 || points > MAX_POINTS) {
            throw new IllegalArgumentException("--points must be in [2, " + MAX_POINTS + "], was " + points);
        }
        if (concurrent != null) {
            Limits.requireThreads("--concurrent", concurrent);
        }
        Limits limits = Limits.ofThisJvm();
        workload.check(spec, limits);
        if (size != null) {
            if (size < 2) {
                throw new IllegalArgumentException("--size must be >= 2, was " + size);
            }
            limits.requirePages("--size", size);
        }
        boolean toStdout = InputFile.isDash(out);
        if (toStdout && json) {
            throw new IllegalArgumentException("--json has no effect with --out - (standard output holds the page), "
                    + "was given");
        }
        if (!toStdout) {
            OutputFolder.require("--out", out);
            if (workload.trace != null) {
                OutputFolder.requireNotInput("--out", out, workload.trace);
            }
        }
        WorkloadOptions.Loaded loaded = workload.load(ArcCommand.stdin(spec), limits);
        String source = loaded.source();
        long[] requests = loaded.requests();
        long unique = loaded.unique();
        int timelineSize = size != null ? size : (int) Math.max(2, unique / 16);
        List<Integer> chartSizes = workload.sizes(unique).stream().distinct().sorted().toList();
        HtmlReport report = new HtmlReport("arc report: " + source);
        int steps = 2 + chartSizes.size() * Policy.values().length + (concurrent != null ? 1 : 0);
        int[] done = {0};
        List<Series> hitRatios = List.of();
        Timeline zfs22 = null;
        ConcurrentReplayResult concurrentResult = null;
        Progress progress = new Progress(spec.commandLine().getErr(), "arc report", Progress.onTerminal());
        Runnable step = () -> {
            if (Interruption.requested()) {
                throw new Interruption.Interrupted("replaying");
            }
            progress.update((double) done[0]++ / steps, done[0] + "/" + steps + " replays");
        };
        try {
            step.run();
            Runnable checkpoint = () -> Interruption.check("replaying");
            Timeline zfs = Timeline.zfs(requests, timelineSize, points, checkpoint);
            report.section("arc_c, arc_p and state sizes over the replay", String.format(Locale.ROOT,
                    "The ZFS 2.1.1 spec in page mode at %d pages (arc_c_min = arc_c_max), %,d requests, %,d unique "
                            + "pages; sizes in pages, sampled %d times.", timelineSize, requests.length, unique,
                    points), timeline("arc_c, arc_p and state sizes", "pages", zfs, Timeline.ZFS));
            step.run();
            zfs22 = Timeline.zfs22(requests, timelineSize, points, checkpoint);
            List<String> sizes = zfs22.names().stream().filter(n -> !Timeline.FRACTIONS.contains(n)).toList();
            report.section("zfs-2.2.0's engine: arc_c, state sizes and fractions over the replay",
                    String.format(Locale.ROOT, "The zfs-2.2.0 spec in page mode at %d pages, the same requests, "
                            + "sampled %d times: arc_c and the size of every state (data plus metadata; every "
                            + "page is data) in pages; then arc_meta, arc_pd and arc_pm as fractions of 1 (2^32 in "
                            + "arc.c), which zfs-2.2.0 does not clamp: they may leave [0, 1].", timelineSize, points),
                    timeline("zfs-2.2.0: arc_c and state sizes", "pages", zfs22, sizes)
                            + timeline("zfs-2.2.0: arc_meta, arc_pd and arc_pm", "fraction (1 = 2^32)", zfs22,
                                    Timeline.FRACTIONS));
            hitRatios = hitRatios(requests, chartSizes, step);
            report.section("Hit ratio against cache size", String.format(Locale.ROOT,
                    "Hit ratio (%%) of the spec's zfs-2.1.1 engine (zfs), its zfs-2.2.0 engine (zfs22), the "
                            + "canonical ARC (FAST'03) and LRU at %s pages.",
                    chartSizes), new SvgChart("Hit ratio against cache size", "cache size (pages, log scale)",
                            "hit ratio (%)", true).lines(hitRatios));
            if (concurrent != null) {
                step.run();
                concurrentResult = ConcurrentReplay.run(requests, timelineSize, concurrent,
                        Interruption::requested, n -> { });
                if (Interruption.requested()) {
                    throw new Interruption.Interrupted("replaying");
                }
                ConcurrentReplayResult r = concurrentResult;
                WaitTimes w = r.evictionWaits();
                report.section("Eviction waits of a concurrent replay", String.format(Locale.ROOT,
                        "The concurrent ARC (default mode, evict zthr) at %d pages, %d threads, requests "
                                + "interleaved: hit ratio %.2f %%, %,d eviction waits, p50 %.1f us, p99 %.1f us, "
                                + "max %.1f us (percentiles within 12.5 %%); largest sampled aggsum gap %,d bytes.",
                        timelineSize, concurrent, r.hitRatioPercent(), w.count(), w.percentile(0.5) / 1e3,
                        w.percentile(0.99) / 1e3, w.max() / 1e3, r.maxAggsumGap()), waits(w));
            }
        } catch (Interruption.Interrupted e) {
            progress.finish();
            spec.commandLine().getErr().println("arc report: interrupted after " + done[0] + " of " + steps
                    + " replays; no report written");
            return ExitCode.INTERRUPTED;
        }
        progress.finish();
        PrintWriter stdout = spec.commandLine().getOut();
        if (toStdout) {
            stdout.print(report.render());
        } else {
            try {
                Files.writeString(out, report.render());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write report file " + out + ": " + e.getMessage(), e);
            }
            stdout.println(json ? summary(loaded, timelineSize, zfs22, hitRatios, concurrentResult)
                    : "arc report: wrote " + out);
        }
        stdout.flush();
        return ExitCode.SUCCESS;
    }

    /** The report's figures as one JSON object, for {@code --json}. */
    private String summary(WorkloadOptions.Loaded loaded, int timelineSize, Timeline zfs22, List<Series> hitRatios,
            ConcurrentReplayResult concurrentResult) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("out", out.toString());
        o.put("source", loaded.source());
        o.put("requests", loaded.requests().length);
        o.put("uniquePages", loaded.unique());
        o.put("timelinePages", timelineSize);
        Map<String, Object> fractions = new LinkedHashMap<>();
        for (String name : Timeline.FRACTIONS) {
            Map<String, Object> range = new LinkedHashMap<>();
            range.put("min", rounded(Arrays.stream(zfs22.values(name)).min().orElse(Double.NaN)));
            range.put("max", rounded(Arrays.stream(zfs22.values(name)).max().orElse(Double.NaN)));
            fractions.put(name, range);
        }
        o.put("zfs22Fractions", fractions);
        List<Object> rows = new ArrayList<>();
        for (Series line : hitRatios) {
            for (int i = 0; i < line.xs().length; i++) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("policy", line.name());
                row.put("pages", (long) line.xs()[i]);
                row.put("hitRatioPercent", rounded(line.ys()[i]));
                rows.add(row);
            }
        }
        o.put("hitRatios", rows);
        if (concurrentResult != null) {
            WaitTimes w = concurrentResult.evictionWaits();
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("threads", concurrentResult.threads());
            c.put("hits", concurrentResult.hits());
            c.put("evictWaits", w.count());
            c.put("evictWaitP50Nanos", w.percentile(0.5));
            c.put("evictWaitP99Nanos", w.percentile(0.99));
            c.put("evictWaitMaxNanos", w.max());
            c.put("maxAggsumGapBytes", concurrentResult.maxAggsumGap());
            o.put("concurrent", c);
        }
        return JsonWriter.write(o);
    }

    /**
     * A chart of the quantities {@code names} of {@code t} over the requests, titled {@code title} at N pages. A
     * quantity of {@link Timeline#ZFS} has the colour and dash of its place there, so that a state looks the same in
     * both engines' charts; a fraction those of its place in {@link Timeline#FRACTIONS}.
     */
    /** @return {@code v} with 4 decimals, for JSON */
    private static BigDecimal rounded(double v) {
        return BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_EVEN);
    }

    private static String timeline(String title, String yLabel, Timeline t, List<String> names) {
        List<Series> lines = new ArrayList<>();
        for (String name : names) {
            int k = Timeline.ZFS.contains(name) ? Timeline.ZFS.indexOf(name) : Timeline.FRACTIONS.indexOf(name);
            lines.add(series(k, name, t.at(), t.values(name)));
        }
        return new SvgChart(title + " at " + t.pages() + " pages", "requests", yLabel, false).lines(lines);
    }

    /** The {@code k}-th series of a chart, in the {@code k}-th colour and dash pattern. */
    private static Series series(int k, String name, double[] xs, double[] ys) {
        return new Series(name, COLORS[k % COLORS.length], Series.DASHES[k % Series.DASHES.length], xs, ys);
    }

    private static List<Series> hitRatios(long[] requests, List<Integer> sorted, Runnable step) {
        double[] xs = sorted.stream().mapToDouble(Integer::doubleValue).toArray();
        List<Series> lines = new ArrayList<>();
        for (Policy policy : Policy.values()) {
            double[] ys = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                step.run();
                ys[i] = 100.0 * ChunkedReplay.hits(policy.create(sorted.get(i)), requests)
                        / Math.max(1, requests.length);
            }
            lines.add(series(lines.size(), policy.label(), xs, ys));
        }
        return lines;
    }

    private static String waits(WaitTimes w) {
        long[][] buckets = w.buckets();
        double[] lo = new double[buckets.length];
        double[] hi = new double[buckets.length];
        double[] counts = new double[buckets.length];
        for (int i = 0; i < buckets.length; i++) {
            lo[i] = buckets[i][0] / 1e3;
            hi[i] = (buckets[i][1] + 1) / 1e3;
            counts[i] = buckets[i][2];
        }
        return new SvgChart("Eviction wait times", "wait (us, log scale)", "waits per bucket (8 per doubling)", true)
                .histogram("waits per bucket", COLORS[0], lo, hi, counts);
    }
}
