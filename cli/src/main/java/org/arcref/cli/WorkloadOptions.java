package org.arcref.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.arcref.trace.TraceFormat;
import org.arcref.trace.TraceReader;
import org.arcref.workload.SyntheticWorkload;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The workload options shared by {@code arc replay} and {@code arc report} (a picocli mixin): a block trace or the
 * built-in synthetic workload, and the cache sizes to replay it at.
 */
final class WorkloadOptions {

    @Parameters(index = "0", arity = "0..1", paramLabel = "TRACE",
            description = "Trace file, or - for standard input (LIRS: one block per line; .lis: start count ignored "
                    + "reqno; plain, gzip or zstd). Default: the built-in synthetic workload.")
    Path trace;

    @Option(names = "--format", paramLabel = "lirs|lis",
            description = "Trace format; detected from the content when omitted.")
    String format;

    @Option(names = "--sizes", split = ",", paramLabel = "PAGES",
            description = "Cache sizes in pages, each >= 2 (default: 1/64 to 1/4 of the unique pages).")
    List<Integer> sizes;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "42",
            description = "Seed of the synthetic workload (default: ${DEFAULT-VALUE}); not with a TRACE.")
    long seed;

    @Option(names = "--length", paramLabel = "N", defaultValue = "1000000",
            description = "Requests in the synthetic workload (default: ${DEFAULT-VALUE}); not with a TRACE.")
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
     * Checks the options against each other and against this JVM before any work: {@code --seed} and
     * {@code --length} shape only the synthetic workload, {@code --format} only a trace; the synthetic workload's
     * length and every cache size must fit the heap ({@link Limits}).
     *
     * @param spec the command the options belong to
     * @param limits this JVM's limits
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    void check(CommandSpec spec, Limits limits) {
        if (trace != null) {
            GivenOptions.reject(spec, "with a TRACE (it shapes the synthetic workload)", "--seed", "--length");
        } else {
            GivenOptions.reject(spec, "without a TRACE (the synthetic workload has no format)", "--format");
            limits.requireRequests("--length", length);
        }
        if (format != null) {
            TraceFormat.named(format);
        }
        if (sizes != null) {
            for (int p : sizes) {
                if (p < 2) {
                    throw new IllegalArgumentException("--sizes must all be >= 2, was " + p);
                }
                limits.requirePages("--sizes", p);
            }
        }
    }

    /**
     * @param stdin standard input, for a TRACE of {@code -}
     * @param limits this JVM's limits: a trace may not expand to more requests than its heap holds
     * @return the trace's requests, or the synthetic workload's
     * @throws org.arcref.trace.TraceFormatException naming file and line of a bad trace line
     * @throws IllegalArgumentException if the trace has no requests
     */
    Loaded load(InputStream stdin, Limits limits) {
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
            Optional<TraceFormat> given = Optional.ofNullable(format).map(TraceFormat::named);
            requests = InputFile.read(trace, "trace file", stdin,
                    (in, name) -> TraceReader.read(in, name, given, limits.requests()));
            source = InputFile.name(trace);
            if (requests.length == 0) {
                throw new IllegalArgumentException("trace file " + source + " has no requests (no data lines); "
                        + "nothing to replay");
            }
        }
        return new Loaded(source, requests, Arrays.stream(requests).sorted().distinct().count());
    }

    /**
     * @param unique the workload's distinct pages
     * @return {@code --sizes} (checked by {@link #check}), or 1/64 to 1/4 of the unique pages, doubling, at least
     *     2 pages each
     */
    List<Integer> sizes(long unique) {
        if (sizes != null) {
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
