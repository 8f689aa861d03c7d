package org.arcref.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.arcref.trace.TraceFormat;
import org.arcref.trace.TraceReader;
import org.arcref.workload.SyntheticWorkload;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The workload options shared by {@code arc replay} and {@code arc report} (a picocli mixin): a block trace or the
 * built-in synthetic workload, and the cache sizes to replay it at.
 */
final class WorkloadOptions {

    @Parameters(index = "0", arity = "0..1", paramLabel = "TRACE",
            description = "Trace file (LIRS: one block per line; .lis: start count ignored reqno). "
                    + "Default: the built-in synthetic workload.")
    Path trace;

    @Option(names = "--format", paramLabel = "lirs|lis",
            description = "Trace format; detected from the content when omitted.")
    String format;

    @Option(names = "--sizes", split = ",", paramLabel = "PAGES",
            description = "Cache sizes in pages, each >= 2 (default: 1/64 to 1/4 of the unique pages).")
    List<Integer> sizes;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "42",
            description = "Seed of the synthetic workload (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--length", paramLabel = "N", defaultValue = "1000000",
            description = "Requests in the synthetic workload (default: ${DEFAULT-VALUE}).")
    int length;

    /**
     * The requests of a workload.
     *
     * @param source the trace's path, or a description of the synthetic workload
     * @param requests the pages requested
     * @param unique the number of distinct pages
     */
    record Loaded(String source, long[] requests, long unique) {
    }

    /**
     * @return the trace's requests, or the synthetic workload's
     * @throws org.arcref.trace.TraceFormatException naming file and line of a bad trace line
     */
    Loaded load() {
        long[] requests;
        String source;
        if (trace == null) {
            SyntheticWorkload synthetic;
            try {
                synthetic = SyntheticWorkload.defaults().withSeed(seed).withLength(length);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--" + e.getMessage(), e);
            }
            requests = synthetic.generate();
            source = "synthetic workload (seed " + seed + ")";
        } else {
            requests = format == null ? TraceReader.read(trace) : TraceReader.read(trace, TraceFormat.named(format));
            source = trace.toString();
        }
        return new Loaded(source, requests, Arrays.stream(requests).sorted().distinct().count());
    }

    /**
     * @param unique the workload's distinct pages
     * @return {@code --sizes}, or 1/64 to 1/4 of the unique pages, doubling, at least 2 pages each
     * @throws IllegalArgumentException if a size is below 2
     */
    List<Integer> sizes(long unique) {
        if (sizes != null) {
            for (int p : sizes) {
                if (p < 2) {
                    throw new IllegalArgumentException("--sizes must all be >= 2, was " + p);
                }
            }
            return sizes;
        }
        List<Integer> defaults = new ArrayList<>();
        for (int div = 64; div >= 4; div /= 2) {
            int s = (int) Math.max(2, Math.min(Integer.MAX_VALUE, unique / div));
            if (!defaults.contains(s)) {
                defaults.add(s);
            }
        }
        return defaults;
    }
}
