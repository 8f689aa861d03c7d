package org.arcref.bench.cache;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.arcref.bench.DriverCommand;
import org.arcref.trace.TraceReader;
import org.arcref.workload.SyntheticWorkload;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsPageCache;

/**
 * How the default {@code zfs_abd_scatter_enabled=1} (fact sheet d.24) moves the spec's hit ratios and its
 * {@code arc_c}/{@code arc_p} dynamics: each workload is replayed as {@link ZfsPageCache} replays it (one tick and one
 * demand read of a 4 KiB page per request, no hold) with scatter ABDs on and off, in two modes:
 * <ul>
 *   <li>{@link Mode#PAGE}: {@link ArcConfig#pages} ({@code arc_c_min = arc_c_max}, so {@code arc_c} is fixed);</li>
 *   <li>{@link Mode#BYTES}: the same but {@code arc_c_min = arc_c_max / 16} (Linux's {@code allmem/32} against
 *       {@code allmem/2}), so {@code arc_c} starts low and {@code arc_adapt} grows it.</li>
 * </ul>
 * The workloads: the LIRS traces {@value #TRACES_TEXT} at a quarter of their distinct pages, and 200,000 requests of
 * the synthetic workload (seed 42) at 500 pages. Writes a CSV and prints a table.
 *
 * <p>Usage: {@code ScatterEffect TRACE_DIR OUT.csv}.
 */
public final class ScatterEffect {

    private static final String TRACES_TEXT = "gli, multi1, ps, sprite and zigzag";
    private static final List<String> TRACES = List.of("gli", "multi1", "ps", "sprite", "zigzag");
    private static final int SYNTHETIC_REQUESTS = 200_000;
    private static final int SYNTHETIC_PAGES = 500;

    /** How {@code arc_c} may move. */
    enum Mode {
        /** {@code arc_c} fixed at the capacity. */
        PAGE,
        /** {@code arc_c} from a sixteenth of the capacity up to it. */
        BYTES;

        ArcConfig config(int pages, boolean scatter) {
            ArcConfig p = ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE);
            long cMin = this == PAGE ? p.cMin() : Math.max(p.growthWindow(), p.cMax() / 16);
            return new ArcConfig(cMin, p.cMax(), p.maxBlockSize(), p.growthWindow(), p.sysFree(), p.hz(),
                    p.sublists(), p.seed(), p.evictorRunsAfterEachOperation(), p.fixes(),
                    p.tunables().withAbdScatterEnabled(scatter));
        }
    }

    /**
     * One replay's result.
     *
     * @param meanC {@code arc_c} after each request, averaged
     * @param meanPShare {@code arc_p / arc_c} after each request, averaged
     * @param finalPShare {@code arc_p / arc_c} after the last request
     * @param fullAt the first request after which {@code arc_c == arc_c_max}, or -1 if never
     */
    record Row(String workload, int pages, Mode mode, boolean scatter, long requests, long hits, double meanC,
            long cMax, double meanPShare, double finalPShare, long fullAt, long evictWaits) {
        double ratio() {
            return 100.0 * hits / requests;
        }
    }

    /** The command line: {@code TRACE_DIR OUT.csv}. */
    public static final DriverCommand COMMAND = new DriverCommand("ScatterEffect TRACE_DIR OUT.csv", 2, 2,
            ScatterEffect::drive);

    private ScatterEffect() {
    }

    /**
     * Replays the workloads and writes the CSV; see the class comment for the arguments.
     *
     * @param args {@code TRACE_DIR OUT.csv}
     * @throws Exception if a trace or the CSV cannot be read or written
     */
    public static void main(String[] args) throws Exception {
        COMMAND.main(args);
    }

    private static void drive(String[] args) throws IOException {
        Path dir = DriverCommand.folder("TRACE_DIR", args[0]);
        List<Row> rows = new ArrayList<>();
        for (String name : TRACES) {
            Path trace = dir.resolve(name + ".trace.gz");
            if (!Files.isRegularFile(trace)) {
                throw DriverCommand.bad("TRACE_DIR", "must hold " + name + ".trace.gz", dir.toString());
            }
            long[] requests = TraceReader.read(trace);
            int pages = (int) Math.max(2, Arrays.stream(requests).distinct().count() / 4);
            rows.addAll(run(name, requests, pages));
        }
        long[] synthetic = SyntheticWorkload.defaults().withLength(SYNTHETIC_REQUESTS).generate();
        rows.addAll(run("synthetic", synthetic, SYNTHETIC_PAGES));
        List<String> csv = new ArrayList<>();
        csv.add("workload,pages,mode,scatter,requests,hits,hitRatioPercent,meanArcC,arcCMax,meanArcPShare,"
                + "finalArcPShare,arcCMaxAtRequest,evictWaits");
        rows.forEach(r -> csv.add(String.format(Locale.ROOT, "%s,%d,%s,%b,%d,%d,%.3f,%.0f,%d,%.4f,%.4f,%d,%d",
                r.workload(), r.pages(), r.mode(), r.scatter(), r.requests(), r.hits(), r.ratio(), r.meanC(), r.cMax(),
                r.meanPShare(), r.finalPShare(), r.fullAt(), r.evictWaits())));
        DriverCommand.writeLines(Path.of(args[1]), csv);
        System.out.print(table(rows));
    }

    /** @return the four replays of one workload: each mode with scatter on, then off */
    static List<Row> run(String name, long[] requests, int pages) {
        List<Row> rows = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (boolean scatter : new boolean[] {true, false}) {
                rows.add(replay(name, requests, pages, mode, scatter));
            }
        }
        return rows;
    }

    private static Row replay(String name, long[] requests, int pages, Mode mode, boolean scatter) {
        ArcConfig config = mode.config(pages, scatter);
        ZfsPageCache<ZfsArc> cache = ZfsPageCache.zfs(config);
        ZfsArc arc = cache.arc();
        long hits = 0;
        double sumC = 0;
        double sumPShare = 0;
        long fullAt = -1;
        for (int i = 0; i < requests.length; i++) {
            if (cache.access(requests[i])) {
                hits++;
            }
            long c = arc.targetSize();
            sumC += c;
            sumPShare += (double) arc.mruTarget() / c;
            if (fullAt < 0 && c == config.cMax()) {
                fullAt = i + 1;
            }
        }
        return new Row(name, pages, mode, scatter, requests.length, hits, sumC / requests.length, config.cMax(),
                sumPShare / requests.length, (double) arc.mruTarget() / arc.targetSize(), fullAt,
                arc.stat(ArcStat.EVICT_WAITS));
    }

    /** One line per workload and mode: hit ratios and the arc_c/arc_p figures, scatter on against off. */
    static String table(List<Row> rows) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "%-9s %6s %-5s | %8s %8s | %7s %7s | %9s %9s | %7s %7s | %7s %7s%n", "workload", "pages", "mode",
                "hit% on", "hit% off", "c% on", "c% off", "c full on", "c full off", "p/c on", "p/c off",
                "waits on", "off"));
        for (int i = 0; i < rows.size(); i += 2) {
            Row on = rows.get(i);
            Row off = rows.get(i + 1);
            sb.append(String.format(Locale.ROOT,
                    "%-9s %6d %-5s | %8.2f %8.2f | %7.1f %7.1f | %9d %9d | %7.3f %7.3f | %7d %7d%n", on.workload(),
                    on.pages(), on.mode(), on.ratio(), off.ratio(), 100 * on.meanC() / on.cMax(),
                    100 * off.meanC() / off.cMax(), on.fullAt(), off.fullAt(), on.meanPShare(), off.meanPShare(),
                    on.evictWaits(), off.evictWaits()));
        }
        return sb.toString();
    }
}
