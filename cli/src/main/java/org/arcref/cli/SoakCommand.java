package org.arcref.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.conformance.JsonWriter;
import org.arcref.property.PropertyViolation;
import org.arcref.soak.Soak;
import org.arcref.soak.SoakResult;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.MemoryModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arc soak}: the concurrent ARC's soak ({@link Soak}) for a chosen time and thread count; prints its summary
 * and every violation, and exits with {@link ExitCode#FINDING} if there was one.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"Soak the concurrent ARC from many threads and check N1, L1, R3 and R4.",
                "",
                "T threads run random reads (all kinds, with holds), writes, completions,",
                "releases, frees, shrinks and ticks on a cache much smaller than the working",
                "set, with the evict zthr running. Every read must return its key's value (N1);",
                "no operation may throw, hang or take over 5 s (L1); the accounting must add up",
                "after close (R3, R4). Progress goes to stderr; Ctrl-C stops early and still",
                "checks and prints the summary."},
        footer = {"", "Examples:", "  arc soak --duration 30s",
                "  arc soak --duration 10m --threads 16 --c-max-kib 4096",
                "  arc soak --duration 5s --json",
                "", "Exit status: 0 no violation, 1 a violation, 2 bad usage or input,",
                "3 internal error, 130 interrupted (see arc --help)."})
final class SoakCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--duration", paramLabel = "D", converter = DurationConverter.class, defaultValue = "30s",
            description = "How long the threads run, e.g. 30s, 10m, 2h, at most 876000h (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "4",
            description = "Worker threads, 1 to " + Limits.MAX_THREADS + " (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--json", description = "Print the summary as one JSON object instead of lines.")
    boolean json;

    @Option(names = "--c-min-kib", paramLabel = "KIB", defaultValue = "256",
            description = "arc_c_min in KiB (default: ${DEFAULT-VALUE}); blocks are 512 B to 4 KiB.")
    long cMinKib;

    @Option(names = "--c-max-kib", paramLabel = "KIB", defaultValue = "512",
            description = "arc_c_max in KiB (default: ${DEFAULT-VALUE}).")
    long cMaxKib;

    @Override
    public Integer call() throws InterruptedException {
        Limits.requireThreads("--threads", threads);
        if (cMinKib < 16 || cMaxKib < cMinKib || cMaxKib > (1L << 30)) {
            throw new IllegalArgumentException("--c-min-kib and --c-max-kib must satisfy 16 <= min <= max <= 2^30, was "
                    + cMinKib + " and " + cMaxKib);
        }
        ArcConfig config = ArcConfig.small(cMinKib << 10, cMaxKib << 10, 4096)
                .withSublists(ConcurrentArc.defaultSublists());
        PrintWriter out = spec.commandLine().getOut();
        AtomicLong ops = new AtomicLong();
        SoakResult result;
        boolean interrupted;
        Progress progress = new Progress(spec.commandLine().getErr(), "arc soak", Progress.onTerminal());
        long start = System.nanoTime();
        Thread reporter = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                long elapsed = System.nanoTime() - start;
                progress.update((double) elapsed / duration.toNanos(), String.format(Locale.ROOT,
                        "%,d operations", ops.get()));
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "soak-progress");
        reporter.setDaemon(true);
        reporter.start();
        result = new Soak(threads).run(new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.zfs()),
                duration.toNanos(), Interruption::requested, ops);
        reporter.interrupt();
        reporter.join();
        progress.finish();
        interrupted = Interruption.requested();
        if (json) {
            out.println(json(result, interrupted));
        } else {
            out.println(summary(result, interrupted));
            result.violations().forEach(v -> out.println("arc soak: VIOLATION " + line(v)));
        }
        out.flush();
        return !result.violations().isEmpty() ? ExitCode.FINDING
                : interrupted ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    private String json(SoakResult r, boolean interrupted) {
        ArcSnapshot s = r.snapshot();
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("threads", threads);
        o.put("seconds", BigDecimal.valueOf(r.elapsedNanos() / 1_000_000, 3));
        o.put("interrupted", interrupted);
        o.put("operations", r.ops());
        o.put("evictions", s.stats().get(ArcStat.EVICTIONS));
        o.put("evictorRuns", s.stats().get(ArcStat.EVICTOR_RUNS));
        o.put("evictionWaits", r.evictionWaits().count());
        o.put("evictionWaitP50Nanos", r.evictionWaits().percentile(0.5));
        o.put("evictionWaitP99Nanos", r.evictionWaits().percentile(0.99));
        o.put("evictionWaitMaxNanos", r.evictionWaits().max());
        o.put("mutexMisses", s.stats().get(ArcStat.MUTEX_MISS));
        o.put("longestOperationNanos", r.longestOpNanos());
        o.put("arcC", s.c());
        o.put("arcSize", s.size());
        o.put("violations", r.violations().stream().map(SoakCommand::line).toList());
        return JsonWriter.write(o);
    }

    /** @return the property a violation names and how it broke, on one line */
    private static String line(PropertyViolation v) {
        return v.property() + ": " + v.detail();
    }

    private String summary(SoakResult r, boolean interrupted) {
        ArcSnapshot s = r.snapshot();
        return String.format(Locale.ROOT, "arc soak: %d threads, %.1f s%s, %,d operations, %,d evictions, %,d evictor "
                        + "runs, %,d eviction waits (p50 %.1f us, p99 %.1f us, max %.1f us), %,d mutex misses, "
                        + "longest operation %.1f ms, arc_c %d, arc_size %d: %s",
                threads, r.elapsedNanos() / 1e9, interrupted ? " (interrupted)" : "", r.ops(),
                s.stats().get(ArcStat.EVICTIONS), s.stats().get(ArcStat.EVICTOR_RUNS), r.evictionWaits().count(),
                r.evictionWaits().percentile(0.5) / 1e3, r.evictionWaits().percentile(0.99) / 1e3,
                r.evictionWaits().max() / 1e3, s.stats().get(ArcStat.MUTEX_MISS), r.longestOpNanos() / 1e6, s.c(),
                s.size(), r.violations().isEmpty() ? "no violation" : r.violations().size() + " violation(s)");
    }
}
