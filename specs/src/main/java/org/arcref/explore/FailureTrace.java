package org.arcref.explore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ZfsRelease;

/**
 * Writes a shrunk failure as an op trace ({@link Operation#toTraceLine()}, read by
 * {@link org.arcref.trace.OpTraceReader}): comment lines with the seed, the try, the check, the configuration, the
 * failure and the command that reproduces it, then one operation per line; for the oracle check, first a
 * {@code # conform:} line with every setting of the try's configuration.
 */
public final class FailureTrace {

    private FailureTrace() {
    }

    /**
     * @param seed the exploration's seed
     * @param failure the failure
     * @return the file name for it: {@code arc-explore-<check>-seed<seed>-try<t>.trace}
     */
    public static String fileName(long seed, Failure failure) {
        return "arc-explore-" + failure.check().label() + "-seed" + seed + "-try" + failure.tryIndex() + ".trace";
    }

    /**
     * @param failure a failure
     * @param release the release the oracle check followed ({@code --zfs})
     * @param trace the file its shrunk trace was written to
     * @return the {@code arc explore} command that replays it: its check and try seed, and for an oracle check of
     *     another release than zfs-2.1.1 that release ({@code --zfs})
     */
    public static String reproduce(Failure failure, ZfsRelease release, Path trace) {
        String zfs = failure.check() == CheckKind.ORACLE && release != ZfsRelease.V2_1_1
                ? " --zfs " + release.version() : "";
        return "arc explore --check " + failure.check().label() + zfs + " --try-seed " + failure.trySeed()
                + " --trace " + trace;
    }

    /**
     * @param file where to write
     * @param seed the exploration's seed
     * @param failure the failure
     * @param release the release the oracle check followed ({@code --zfs})
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void write(Path file, long seed, Failure failure, ZfsRelease release) {
        List<String> lines = new ArrayList<>();
        lines.add("# arc explore: check " + failure.check().label() + " failed on try " + failure.tryIndex()
                + " of seed " + seed + " (try seed " + failure.trySeed() + ")");
        lines.add("# reproduce: " + reproduce(failure, release, file.getFileName()));
        lines.add("# config: " + failure.settings().config());
        lines.add("# failure: " + failure.shrunk().firstLine());
        lines.add("# shrunk from " + failure.originalOps().size() + " to " + failure.shrunkOps().size()
                + " operations (" + failure.evaluations() + " candidates tested)");
        if (failure.check() == CheckKind.ORACLE) {
            lines.add("# the settings, so that arc conform and arc-oracle run it as the check did (docs/oracle.md):");
            lines.addAll(ConformanceTrace.text(failure.settings(), failure.shrunkOps()).lines().toList());
        } else {
            failure.shrunkOps().forEach(op -> lines.add(op.toTraceLine()));
        }
        try {
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + file + ": " + e.getMessage(), e);
        }
    }
}
