package org.arcref.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code arc replay}: replays a trace (the formats of {@link org.arcref.trace.RequestFormat}: LIRS, ARC {@code .lis},
 * libCacheSim csv and oracleGeneral, Twitter, MSR Cambridge; plain, gzip or zstd), or the built-in synthetic
 * workload, through each chosen policy at each cache size, optionally after a warm-up that is not counted, and
 * prints the hit ratios and the replay speed as a table, JSON or csv, to standard output or to a file.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a trace, or the built-in synthetic workload, through cache policies",
                "and print hit ratios (%%) and speed (million requests/s) per policy and cache size."},
        footer = {"", "Trace formats (--format NAME; detected from the content where marked *):",
                "  lirs *         one block number per line",
                "  lis *          start count ignored reqno: count pages from start",
                "  msr *          MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,",
                "                 ResponseTime (bytes); the pages Offset/P .. (Offset+Size-1)/P",
                "                 of --page-size P, each host and disk its own page space",
                "  twitter *      twitter/cache-trace: timestamp,key,key size,value size,",
                "                 client id,operation,TTL; every operation requests its key",
                "  csv            libCacheSim csv: --obj-id-col N (from 1) [--obj-size-col N]",
                "                 [--time-col N] [--has-header] [--delimiter C]",
                "  oracleGeneral  libCacheSim binary: packed 24-byte little-endian records",
                "                 (uint32 time, uint64 id, uint32 size, int64 next access);",
                "                 also told by a name ending in .oracleGeneral[.gz|.zst]",
                "In key-value formats a key is one page: sizes are checked, then ignored, so",
                "cache sizes count objects.",
                "", "Examples:", "  arc replay", "  arc replay traces/lirs/loop.trace.gz --repeat 5",
                "  arc replay trace.lis --format lis --policies zfs,canonical --json",
                "  arc replay traces/lirs/gli.trace.gz --policies zfs,zfs22 --sizes 250,1000",
                "  arc replay msr_src1_0.csv --sizes 1%%,10%% --warmup 10%%",
                "  arc replay cluster52.twitter.zst --sizes 64M,256M",
                "  arc replay kv.csv --format csv --obj-id-col 2 --has-header --csv -o out.csv",
                "  arc replay w01.oracleGeneral.zst --sizes 1000,10000 --json",
                "  arc replay traces/lirs/sprite.trace.gz --concurrent 4",
                "  zcat traces/lirs/gli.trace.gz | arc replay - --sizes 250",
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
            description = "Policies to replay through: zfs (the spec's zfs-2.1.1 engine), zfs22 (its zfs-2.2.0 "
                    + "engine), canonical, lru (default: all).")
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

    @Option(names = "--csv", description = "Print a csv table instead: a header line, then one row per policy and "
            + "size (policy,pages,requests,warmup_requests,hits,hit_ratio_percent,requests_per_second).")
    boolean csv;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the results to FILE instead of standard output (- for standard output); its folder "
                    + "must exist, and it must not be the TRACE.")
    Path output;

    @Option(names = "--warmup", paramLabel = "N|P%",
            description = "The first N requests (or P%% of them) fill the cache but are not counted in the hit "
                    + "ratio; not with --concurrent.")
    String warmup;

    @Override
    public Integer call() {
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be >= 1, was " + repeat);
        }
        if (csv && json) {
            throw new IllegalArgumentException("--csv and --json cannot both be given: the results are printed once");
        }
        if (concurrent != null) {
            Limits.requireThreads("--concurrent", concurrent);
            GivenOptions.reject(spec, "with --concurrent (it replays the concurrent ARC once)", "--policies",
                    "--repeat", "--warmup", "--csv");
        }
        Warmup warm = warmup == null ? null : Warmup.parse("--warmup", warmup);
        Limits limits = Limits.ofThisJvm();
        workload.check(spec, limits);
        if (output != null && !InputFile.isDash(output)) {
            OutputFolder.require("-o/--output", output);
            if (workload.trace != null && !InputFile.isDash(workload.trace)) {
                OutputFolder.requireNotInput("-o/--output", output, workload.trace);
            }
        }
        WorkloadOptions.Loaded loaded = workload.load(ArcCommand.stdin(spec), limits);
        String source = loaded.source();
        long[] requests = loaded.requests();
        long unique = loaded.unique();
        List<Integer> pages = workload.sizes(unique);
        int skipped = warm == null ? 0 : warm.requests(requests.length);
        if (concurrent != null) {
            return replayConcurrently(source, requests, unique, pages);
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
                    ReplayResult once = replay(policy, p, requests, skipped);
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
            write(ReplayReport.json(source, requests.length, skipped, unique, repeat, interrupted, results) + "\n");
        } else if (csv) {
            write(ReplayReport.csv(results));
        } else {
            write(ReplayReport.table(source, requests.length, skipped, unique, repeat, chosen, pages, results)
                    + (interrupted ? "interrupted: only the sizes above were replayed\n" : ""));
        }
        return interrupted ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    /** Writes the results to standard output or to {@code -o}, whole; a failure to write ends the command. */
    private void write(String text) {
        if (output == null || InputFile.isDash(output)) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
            return;
        }
        try {
            Files.writeString(output, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write -o/--output " + output + ": " + e.getMessage(), e);
        }
    }

    private int replayConcurrently(String source, long[] requests, long unique, List<Integer> pages) {
        List<ConcurrentReplayResult> results = new ArrayList<>();
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
        boolean interrupted = Interruption.requested();
        if (json) {
            write(ReplayReport.concurrentJson(source, requests.length, unique, concurrent, interrupted, results)
                    + "\n");
        } else {
            write(ReplayReport.concurrentTable(source, requests.length, unique, concurrent, results)
                    + (interrupted ? "interrupted: the last size replayed only part of the trace\n" : ""));
        }
        return interrupted ? ExitCode.INTERRUPTED : ExitCode.SUCCESS;
    }

    /** One replay of the trace through a fresh cache, the first {@code skipped} requests not counted. */
    private static ReplayResult replay(Policy policy, int pages, long[] requests, int skipped) {
        PageCache cache = policy.create(pages);
        long start = System.nanoTime();
        long hits = ChunkedReplay.hits(cache, requests, skipped);
        return new ReplayResult(policy, pages, requests.length, requests.length - skipped, hits,
                System.nanoTime() - start);
    }
}
