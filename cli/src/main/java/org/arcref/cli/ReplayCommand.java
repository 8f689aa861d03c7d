package org.arcref.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.arcref.policy.PageCache;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arc replay}: replays a block trace (LIRS or ARC {@code .lis}, plain or gzip), or the
 * built-in synthetic workload, through each chosen policy at each cache size, and prints the hit
 * ratios and the replay speed as a table or as JSON.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a block trace, or the built-in synthetic workload, through cache policies",
                "and print hit ratios (%%) and speed (million requests/s) per policy and cache size."},
        footer = {"", "Examples:", "  arc replay", "  arc replay ../shared/traces/lirs/loop.trace.gz --repeat 5",
                "  arc replay trace.lis --format lis --policies zfs,canonical --json",
                "  arc replay ../shared/traces/lirs/sprite.trace.gz --concurrent 4",
                "  zcat ../shared/traces/lirs/gli.trace.gz | arc replay - --sizes 250",
                "", "With --concurrent N the trace goes through the concurrent ARC in its default",
                "mode (per-CPU aggsum, evict zthr) from N threads, interleaved: thread t",
                "replays requests t, t+N, t+2N, ... It reports hit ratio, throughput,",
                "eviction waits (count, p50, p99, max; percentiles within 12.5 %%) and the",
                "largest sampled aggsum gap (upper - lower bound of arc_size)."})
final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--policies", split = ",", paramLabel = "POLICY",
            description = "Policies to replay through: zfs, canonical, lru (default: all).")
    List<Policy> policies;

    @Option(names = "--concurrent", paramLabel = "N",
            description = "Replay through the concurrent ARC from N threads instead of the policies.")
    Integer concurrent;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Rounds of replays, each of every policy at every size; the speed is the fastest "
                    + "(default: ${DEFAULT-VALUE}). After Ctrl-C in a later round, every cell is reported.")
    int repeat;

    @Option(names = "--json", description = "Print JSON instead of tables.")
    boolean json;

    @Override
    public Integer call() {
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be >= 1, was " + repeat);
        }
        if (concurrent != null) {
            Limits.requireThreads("--concurrent", concurrent);
            GivenOptions.reject(spec, "with --concurrent (it replays the concurrent ARC once)", "--policies",
                    "--repeat");
        }
        Limits limits = Limits.ofThisJvm();
        workload.check(spec, limits);
        WorkloadOptions.Loaded loaded = workload.load(ArcCommand.stdin(spec), limits);
        String source = loaded.source();
        long[] requests = loaded.requests();
        long unique = loaded.unique();
        List<Integer> pages = workload.sizes(unique);
        PrintWriter out = spec.commandLine().getOut();
        if (concurrent != null) {
            return replayConcurrently(out, source, requests, unique, pages);
        }
        List<Policy> chosen = policies != null ? policies.stream().distinct().toList() : List.of(Policy.values());
        List<ReplayResult> results = new ArrayList<>();
        Progress progress = new Progress(spec.commandLine().getErr(), "arc replay", Progress.onTerminal());
        int cells = pages.size() * chosen.size();
        try {
            for (int r = 0; r < repeat; r++) {
                for (int i = 0; i < cells; i++) {
                    int p = pages.get(i / chosen.size());
                    Policy policy = chosen.get(i % chosen.size());
                    progress.update(((double) r * cells + i) / ((double) repeat * cells), policy.label() + " at " + p
                            + " pages" + (repeat > 1 ? ", replay " + (r + 1) + " of " + repeat : ""));
                    ReplayResult once = replay(policy, p, requests);
                    if (r == 0) {
                        results.add(once);
                    } else if (once.bestNanos() < results.get(i).bestNanos()) {
                        results.set(i, once);
                    }
                }
            }
        } catch (Interruption.Interrupted e) {
            // every size replayed through every policy is reported below; the speed is the fastest replay that ended
        }
        progress.finish();
        boolean interrupted = Interruption.requested();
        if (interrupted) {
            List<Integer> done = pages.subList(0, results.size() / chosen.size());
            results = results.subList(0, done.size() * chosen.size());
            pages = done;
        }
        if (json) {
            out.println(ReplayReport.json(source, requests.length, unique, repeat, interrupted, results));
        } else {
            out.print(ReplayReport.table(source, requests.length, unique, repeat, chosen, pages, results));
            if (interrupted) {
                out.println("interrupted: only the sizes above were replayed");
            }
        }
        out.flush();
        return interrupted ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    private int replayConcurrently(PrintWriter out, String source, long[] requests, long unique, List<Integer> pages) {
        List<ConcurrentReplayResult> results = new ArrayList<>();
        boolean interrupted;
        for (int p : pages) {
            if (Interruption.requested()) {
                break;
            }
            Progress progress = new Progress(spec.commandLine().getErr(), "arc replay " + p + " pages",
                    Progress.onTerminal());
            results.add(ConcurrentReplay.run(requests, p, concurrent, Interruption::requested,
                    done -> progress.update((double) done / requests.length, done + "/" + requests.length
                            + " requests")));
            progress.finish();
        }
        interrupted = Interruption.requested();
        if (json) {
            out.println(ReplayReport.concurrentJson(source, requests.length, unique, concurrent, interrupted,
                    results));
        } else {
            out.print(ReplayReport.concurrentTable(source, requests.length, unique, concurrent, results));
            if (interrupted) {
                out.println("interrupted: the last size replayed only part of the trace");
            }
        }
        out.flush();
        return interrupted ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    /** One replay of the trace through a fresh cache. */
    private static ReplayResult replay(Policy policy, int pages, long[] requests) {
        PageCache cache = policy.create(pages);
        long start = System.nanoTime();
        long hits = ChunkedReplay.hits(cache, requests);
        return new ReplayResult(policy, pages, requests.length, hits, System.nanoTime() - start);
    }
}
