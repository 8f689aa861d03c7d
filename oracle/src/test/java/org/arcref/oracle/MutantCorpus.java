package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.Divergence;
import org.arcref.zfs.ZfsRelease;

/**
 * Traces and the conformance output one release's arc.c gives for each, computed once, against which mutants of the
 * spec ({@link SpecMutant}) are run: the corpus of the planted-mutation tests.
 */
final class MutantCorpus {

    private final ZfsRelease release;
    private final Map<String, String> traces;
    private final Map<String, List<String>> zfs = new LinkedHashMap<>();

    /**
     * Runs every trace through the release's oracle, which must run each to its end.
     *
     * @param release the release whose arc.c judges, and whose engine runs the mutants (without its fixes)
     * @param traces each trace's text by name, in the order they are tried
     */
    MutantCorpus(ZfsRelease release, Map<String, String> traces) {
        this.release = release;
        this.traces = new LinkedHashMap<>(traces);
        try (OracleProcess oracle = OracleProcess.start(Oracles.released(release))) {
            this.traces.forEach((name, text) -> {
                OracleOutput out = oracle.run(name, text, false);
                assertEquals(OracleOutput.Ending.OK, out.ending(), name + ": " + out.message());
                zfs.put(name, out.lines());
            });
        }
    }

    /** @return the number of traces */
    int size() {
        return traces.size();
    }

    /**
     * @param mutant a mutant of the spec
     * @param throwingCatches whether a trace on which the mutant throws catches it (else the trace is passed over:
     *     the spec rejecting a trace is not the oracle catching the mutant)
     * @return where the first trace of the corpus that catches the mutant diverges from the oracle, or empty
     */
    Optional<String> firstCatch(SpecMutant mutant, boolean throwingCatches) {
        for (Map.Entry<String, String> trace : traces.entrySet()) {
            List<String> spec;
            try {
                spec = mutant.conform(trace.getKey(), trace.getValue(), release.engine());
            } catch (InvocationTargetException e) {
                if (throwingCatches) {
                    return Optional.of(trace.getKey() + ": the mutant throws " + e.getCause());
                }
                continue;
            }
            Optional<Divergence> d = OracleComparison.firstDivergence(spec, zfs.get(trace.getKey()));
            if (d.isPresent()) {
                return Optional.of(trace.getKey() + " line " + d.get().line() + ", " + d.get().field() + ": spec "
                        + d.get().expected() + ", zfs " + d.get().actual());
            }
        }
        return Optional.empty();
    }
}
