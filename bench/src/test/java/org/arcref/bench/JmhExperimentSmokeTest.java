package org.arcref.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The smoke mode of the JMH experiments: each runs in-process for a moment at 1 and 2 threads, so that a
 * benchmark that no longer compiles, throws or produces no score fails the build. It says nothing about speed.
 */
class JmhExperimentSmokeTest {

    @ParameterizedTest(name = "{0}: {1} scores per thread count, all finite and positive, JSON written")
    @CsvSource({"e2-aggsum, 14", "e2-arcp, 2", "e3-cache, 12"})
    void experimentRunsAndScores(String name, int benchmarksPerThreadCount) throws Exception {
        Experiment experiment = Experiment.byName(name);
        Path out = Path.of("target", "smoke");
        Map<String, JmhExperiment.Score> scores = JmhExperiment.run(experiment, out, new int[] {1, 2},
                JmhExperiment.Mode.SMOKE, Map.of());
        long primaries = scores.keySet().stream().filter(k -> !k.contains(" :")).count();
        assertEquals(2L * benchmarksPerThreadCount, primaries, "primary scores of " + name + ": " + scores.keySet());
        scores.forEach((k, s) -> {
            assertTrue(Double.isFinite(s.value()), k + " must be finite, was " + s.value());
            assertTrue(k.contains(" :") ? s.value() >= 0 : s.value() > 0, k + " must be positive, was " + s.value());
        });
        for (int t : new int[] {1, 2}) {
            Path json = out.resolve(experiment.fileName() + "-t" + t + ".json");
            assertTrue(Files.size(json) > 0, json + " must be written");
        }
        String summary = JmhExperiment.summary(experiment, scores);
        assertFalse(summary.contains("NaN /"), summary);
        assertTrue(summary.lines().filter(l -> l.contains(" / ")).count() >= experiment.ratios().size(),
                "every ratio must be computed at least once:\n" + summary);
    }

    @Test
    void paramsRestrictTheBenchmarksRun() throws Exception {
        Map<String, JmhExperiment.Score> scores = JmhExperiment.run(Experiment.E3_CACHE,
                Path.of("target", "smoke-param"), new int[] {1}, JmhExperiment.Mode.SMOKE,
                Map.of("cache", new String[] {"arc"}, "readPercent", new String[] {"95"}));
        assertEquals(Set.of("operation cache=arc readPercent=95 scatter=false t=1",
                "operation cache=arc readPercent=95 scatter=true t=1"),
                scores.keySet().stream().filter(k -> !k.contains(" :")).collect(Collectors.toSet()));
    }

    @Test
    void unknownExperimentIsRejectedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Experiment.byName("e9"));
        assertEquals("EXPERIMENT: must be one of e2-aggsum, e2-arcp, e3-cache, was e9", e.getMessage());
    }
}
