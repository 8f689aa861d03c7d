package org.arcref.cli;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.arcref.trace.CsvLayout;
import org.arcref.trace.Excerpt;
import org.arcref.trace.RequestFormat;
import org.arcref.trace.TraceOptions;
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
            description = "Trace file, or - for standard input, plain, gzip or zstd (the formats: arc replay "
                    + "--help). Default: the built-in synthetic workload.")
    Path trace;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "Trace format: lirs, lis, csv, twitter, msr, oracleGeneral (arc replay --help). When "
                    + "omitted, told by the content (lirs, lis, msr, twitter) or by a name ending in "
                    + ".oracleGeneral[.gz|.zst].")
    String format;

    @Option(names = "--page-size", paramLabel = "BYTES", defaultValue = "4096",
            description = "Bytes per page, for msr offsets and sizes and for --sizes in bytes (default: "
                    + "${DEFAULT-VALUE}).")
    long pageSize;

    @Option(names = {"--obj-id-col", "--key-column"}, paramLabel = "N",
            description = "csv: the column of the key, numbered from 1 (libCacheSim's obj-id-col); required.")
    Integer objIdColumn;

    @Option(names = {"--obj-size-col", "--size-column"}, paramLabel = "N",
            description = "csv: the column of the object size in bytes, checked and ignored (every object is one "
                    + "page).")
    Integer objSizeColumn;

    @Option(names = "--time-col", paramLabel = "N", description = "csv: the column of the time, checked and ignored.")
    Integer timeColumn;

    @Option(names = {"--has-header", "--header"}, description = "csv: the first line is a header; skip it.")
    boolean header;

    @Option(names = "--delimiter", paramLabel = "C",
            description = "csv: the character between fields (default: ,); \\t or tab for a tab.")
    String delimiter;

    @Option(names = "--sizes", paramLabel = "SIZES",
            description = "Cache sizes, comma-separated: pages (250), bytes with K, M or G (64M: whole pages of "
                    + "--page-size) or a percentage of the unique pages (1%%); each >= 2 pages (default: 1/64 to 1/4 "
                    + "of the unique pages).")
    String sizes;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "42",
            description = "Seed of the synthetic workload (default: ${DEFAULT-VALUE}); not with a TRACE.")
    long seed;

    @Option(names = "--length", paramLabel = "N", defaultValue = "1000000",
            description = "Requests in the synthetic workload (default: ${DEFAULT-VALUE}); not with a TRACE.")
    int length;

    /** A file name that says oracleGeneral, compressed or not. */
    private static final Pattern ORACLE_GENERAL_NAME = Pattern.compile("\\.oracleGeneral(\\.gz|\\.zst)?$");

    private TraceOptions options = TraceOptions.DEFAULTS;
    private CacheSizes cacheSizes;

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
     * Checks the options against each other and against this JVM before any work, and keeps what {@link #load} and
     * {@link #sizes} use, so it comes first: {@code --seed} and {@code --length} shape only the synthetic workload,
     * {@code --format} and the csv options only a trace (the csv options only with {@code --format csv}, which needs
     * {@code --obj-id-col}); the synthetic workload's length and every cache size known without the workload must
     * fit the heap ({@link Limits}), and {@code --sizes} is parsed ({@link CacheSizes}).
     *
     * @param spec the command the options belong to
     * @param limits this JVM's limits
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    void check(CommandSpec spec, Limits limits) {
        if (trace != null) {
            GivenOptions.reject(spec, "with a TRACE (it shapes the synthetic workload)", "--seed", "--length");
        } else {
            GivenOptions.reject(spec, "without a TRACE (the synthetic workload has no format)", "--format",
                    "--obj-id-col", "--obj-size-col", "--time-col", "--has-header", "--delimiter");
            limits.requireRequests("--length", length);
        }
        RequestFormat given = format == null ? null : RequestFormat.named(format);
        if (given == RequestFormat.CSV) {
            if (objIdColumn == null) {
                throw new IllegalArgumentException("--format csv needs --obj-id-col N (the column of the key, "
                        + "numbered from 1)");
            }
        } else {
            GivenOptions.reject(spec, "without --format csv", "--obj-id-col", "--obj-size-col", "--time-col",
                    "--has-header", "--delimiter");
        }
        try {
            options = new TraceOptions(pageSize, given == RequestFormat.CSV ? Optional.of(csvLayout())
                    : Optional.empty());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage(), e);
        }
        cacheSizes = sizes == null ? null : CacheSizes.parse("--sizes", sizes, pageSize, limits);
    }

    private CsvLayout csvLayout() {
        char c = delimiter == null ? ',' : switch (delimiter) {
            case "\\t", "tab" -> '\t';
            default -> {
                if (delimiter.length() != 1) {
                    throw new IllegalArgumentException("--delimiter must be one character (or \\t or tab), was "
                            + Excerpt.of(delimiter));
                }
                yield delimiter.charAt(0);
            }
        };
        return new CsvLayout(objIdColumn, optional(objSizeColumn), optional(timeColumn), header, c);
    }

    private static OptionalInt optional(Integer column) {
        return column == null ? OptionalInt.empty() : OptionalInt.of(column);
    }

    /**
     * @return the format given, or oracleGeneral for a file named so, or empty to detect it from the content
     */
    private Optional<RequestFormat> requestFormat() {
        if (format != null) {
            return Optional.of(RequestFormat.named(format));
        }
        return ORACLE_GENERAL_NAME.matcher(trace.toString()).find() ? Optional.of(RequestFormat.ORACLE_GENERAL)
                : Optional.empty();
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
            Optional<RequestFormat> given = requestFormat();
            requests = InputFile.readBytes(trace, "trace file", stdin,
                    (in, name) -> TraceReader.read(in, name, given, options, limits.requests()));
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
     * @return {@code --sizes} ({@link CacheSizes}, checked by {@link #check}), or 1/64 to 1/4 of the unique pages,
     *     doubling, at least 2 pages each
     * @throws IllegalArgumentException if a percentage of {@code --sizes} comes to a size given already
     */
    List<Integer> sizes(long unique) {
        if (cacheSizes != null) {
            return cacheSizes.pages(unique);
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
