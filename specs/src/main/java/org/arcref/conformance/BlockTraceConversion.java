package org.arcref.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.arcref.trace.TraceFormat;
import org.arcref.trace.TraceReader;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsPageCache;

/**
 * A block trace (LIRS or {@code .lis}, {@link TraceFormat}) as a conformance trace: the operations that
 * {@code arc replay} performs on the spec for it, so that a real workload gives expected conformance output.
 *
 * <h2>Contract</h2>
 * Each page request {@code p} of the block trace, in order ({@link TraceReader}: a {@code .lis} line stands for
 * several), becomes what {@link ZfsPageCache#access} does on the spec: {@code tick 1}, then
 * {@code read p 4096 demand} (a demand read without hold of one {@link ZfsPageCache#PAGE_SIZE} page). The settings
 * are the page cache's, {@link ArcConfig#pages(int, long)} for a capacity in pages with plentiful free memory
 * ({@link #settings}); the block trace carries none. The trace is named {@code FORMAT:PATH} ({@code lirs:gli.trace},
 * {@link #name}) so that {@code arc verify} can convert it again, and its {@link ConformanceTrace#sha256()} is that
 * of the block trace's text, by the rule for op traces (its lines, each followed by {@code \n}).
 *
 * <p>Operation {@code i} (from 0) has the line number {@code i + 2}: its line in the op trace
 * {@link ConformanceTrace#text} writes for the converted operations, so the conformance output of that op trace
 * differs from the block trace's only in the header's {@code trace} and {@code trace_sha256}.
 */
public final class BlockTraceConversion {

    private BlockTraceConversion() {
    }

    /**
     * @param format the block trace's format
     * @param path the block trace's path, as it is to appear in the header
     * @return the converted trace's name, {@code FORMAT:PATH}
     */
    public static String name(TraceFormat format, String path) {
        return format + ":" + path;
    }

    /**
     * @param traceName a conformance header's trace name
     * @return the block trace format its {@code FORMAT:} prefix names, if it has one
     */
    public static Optional<TraceFormat> formatOf(String traceName) {
        for (TraceFormat f : TraceFormat.values()) {
            if (traceName.startsWith(f + ":")) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    /**
     * @param pages the cache's capacity in pages, at least 2
     * @return the settings {@code arc replay} runs the spec under at that capacity
     * @throws IllegalArgumentException if {@code pages} is below 2
     */
    public static ConformanceSettings settings(int pages) {
        return new ConformanceSettings(ArcConfig.pages(pages, ZfsPageCache.PAGE_SIZE),
                ConformanceSettings.PLENTIFUL_MEMORY);
    }

    /**
     * Reads a block trace, once, and converts it.
     *
     * @param in the block trace's text
     * @param path its path, for the trace's name and for errors
     * @param format its format
     * @return the conformance trace, named {@link #name}{@code (format, path)}, without settings of its own
     * @throws IOException if reading fails
     * @throws org.arcref.trace.TraceFormatException naming the path and line of a malformed line
     */
    public static ConformanceTrace read(BufferedReader in, String path, TraceFormat format) throws IOException {
        Digesting text = new Digesting(in);
        long[] requests = TraceReader.read(text, path, Optional.of(format), TraceReader.RequestLimit.ARRAY);
        List<ConformanceTrace.Step> steps = new ArrayList<>();
        for (long page : requests) {
            steps.add(new ConformanceTrace.Step(steps.size() + 2, new Operation.Tick(1)));
            steps.add(new ConformanceTrace.Step(steps.size() + 2,
                    new Operation.Read(page, ZfsPageCache.PAGE_SIZE, ReadKind.DEMAND, false)));
        }
        return new ConformanceTrace(name(format, path), List.of(), steps,
                HexFormat.of().formatHex(text.digest.digest()));
    }

    /** A reader that digests every line it reads, each followed by {@code \n}, as it passes it on. */
    private static final class Digesting extends BufferedReader {

        private final MessageDigest digest = ConformanceTrace.sha256Digest();

        Digesting(BufferedReader in) {
            super(in);
        }

        @Override
        public String readLine() throws IOException {
            String line = super.readLine();
            if (line != null) {
                digest.update((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
            return line;
        }
    }
}
