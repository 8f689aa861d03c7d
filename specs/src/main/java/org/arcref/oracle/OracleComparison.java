package org.arcref.oracle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.arcref.conformance.ConformanceComparer;
import org.arcref.conformance.ConformanceFile;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Divergence;
import org.arcref.conformance.JsonWriter;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;

/**
 * Runs one op trace through the spec ({@link ConformanceRun}) and through the oracle ({@link OracleProcess}) and
 * compares their conformance output, header included, line by line: the first divergence is the answer, as
 * {@code arc verify SPEC ORACLE} would report it.
 *
 * <p>The oracle runs the trace while the spec does (the trace is {@link OracleProcess#submit submitted} first).
 * Outputs whose lines are equal as text agree without parsing; at the first pair of lines whose text differs,
 * both outputs are parsed and compared field by field ({@link ConformanceComparer}), so that {@code 10} and
 * {@code 1e1} still agree; the header's {@code revision}, which {@code arc verify} leaves out, is compared too, so
 * that the oracle's harness names the revision it is checked against. An
 * oracle run that ended early (rejected, or arc.c crashed) diverges at its first missing line, and the oracle's
 * reason goes with the result.
 */
public final class OracleComparison {

    /**
     * The result of one comparison.
     *
     * @param trace the trace compared
     * @param divergence the first divergence, or null when spec and oracle agree
     * @param oracle what the oracle wrote
     */
    public record Result(ConformanceTrace trace, Divergence divergence, OracleOutput oracle) {

        /** @return whether spec and oracle agree on every line */
        public boolean agrees() {
            return divergence == null;
        }

        /**
         * @return one line saying where they first differ (the operation, its trace line and the field, spec
         *     value first), and why the oracle stopped if it did; empty when they agree
         */
        public String describe() {
            if (divergence == null) {
                return "";
            }
            long op = divergence.line() - 1;
            String where = op == 0 ? "the header"
                    : op <= trace.steps().size() ? "op " + op + " (" + trace.name() + ":" + trace.steps().get((int) op
                            - 1).line() + " " + trace.steps().get((int) op - 1).operation().toTraceLine() + ")"
                    : "line " + divergence.line();
            String field = divergence.field().isEmpty() ? "the whole line" : divergence.field();
            String end = oracle.ending() == OracleOutput.Ending.OK ? ""
                    : "; the oracle " + (oracle.ending() == OracleOutput.Ending.ERROR ? "rejected the trace: "
                            : "crashed: ") + oracle.message();
            return "oracle: " + where + ", " + field + ": spec " + divergence.expected() + ", zfs "
                    + divergence.actual() + end;
        }
    }

    private final OracleProcess oracle;
    private final ZfsEngine engine;
    private final Set<QuirkFix> fixes;

    /**
     * A comparison with an oracle of a zfs-2.1 release, run by zfs-2.1.1's engine.
     *
     * @param oracle the oracle
     * @param fixes the quirk fixes compiled into the oracle's arc.c ({@code build-oracle.sh}); the spec runs with
     *     the same
     */
    public OracleComparison(OracleProcess oracle, Set<QuirkFix> fixes) {
        this(oracle, ZfsEngine.V2_1_1, fixes);
    }

    /**
     * @param oracle the oracle
     * @param engine the engine of the spec that runs the traces: the one of the oracle's release
     * @param fixes the quirk fixes compiled into the oracle's arc.c, the engine's; the spec runs with the same
     */
    public OracleComparison(OracleProcess oracle, ZfsEngine engine, Set<QuirkFix> fixes) {
        this.oracle = oracle;
        this.engine = engine;
        this.fixes = Set.copyOf(fixes);
    }

    /** @return the engine of the spec that runs the traces: the one of the oracle's release */
    public ZfsEngine engine() {
        return engine;
    }

    /**
     * @param name the trace's name
     * @param text the trace's text, lines ending in {@code \n}, with its {@code # conform:} settings
     * @param headers whether each operation line lists every header
     * @return the comparison
     * @throws org.arcref.trace.TraceFormatException if the trace is malformed or the spec rejects an operation
     */
    public Result compare(String name, String text, boolean headers) {
        ConformanceTrace trace;
        try {
            trace = ConformanceTrace.read(new BufferedReader(new StringReader(text)), name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults(engine).withFixes(fixes));
        oracle.submit(name, text, headers);
        List<String> spec;
        try {
            spec = ConformanceRun.of(trace, settings, headers).lines();
        } catch (RuntimeException e) {
            oracle.collect(name);
            throw e;
        }
        OracleOutput zfs = oracle.collect(name);
        return new Result(trace, firstDivergence(spec, zfs.lines()).orElse(null), zfs);
    }

    /**
     * @param spec the spec's conformance lines
     * @param zfs the oracle's
     * @return the first divergence, or empty when they are equal
     */
    public static Optional<Divergence> firstDivergence(List<String> spec, List<String> zfs) {
        int same = 0;
        while (same < spec.size() && same < zfs.size() && spec.get(same).equals(zfs.get(same))) {
            same++;
        }
        if (same == spec.size() && same == zfs.size()) {
            return Optional.empty();
        }
        if (same == zfs.size()) {
            return Optional.of(new Divergence(same + 1, "", spec.get(same), Divergence.ABSENT));
        }
        if (same == spec.size()) {
            return Optional.of(new Divergence(same + 1, "", Divergence.ABSENT, zfs.get(same)));
        }
        ConformanceFile expected = ConformanceFile.parse(spec, "spec");
        ConformanceFile actual = ConformanceFile.parse(zfs, "zfs");
        Object specRevision = expected.lines().get(0).get(ConformanceFormat.REVISION);
        Object zfsRevision = actual.lines().get(0).get(ConformanceFormat.REVISION);
        if (!Objects.equals(specRevision, zfsRevision)) {
            return Optional.of(new Divergence(1, ConformanceFormat.REVISION, JsonWriter.write(specRevision),
                    JsonWriter.write(zfsRevision)));
        }
        return ConformanceComparer.firstDivergence(expected, actual);
    }
}
