package org.arcref.specs.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import org.arcref.policy.Lru;
import org.arcref.policy.Replay;
import org.arcref.specs.trace.SharedTraces;
import org.arcref.trace.TraceReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** LRU reproduces hit ratios published independently (by another cache project) for the gli trace. */
class LruTest {

    private static final long[] GLI = TraceReader.read(SharedTraces.lirs("gli"));

    @ParameterizedTest(name = "LRU on gli with {0} blocks hits {1} %")
    @CsvSource({"250, 0.91", "500, 0.95", "750, 1.15", "1000, 11.21", "1250, 21.25", "1500, 36.56",
        "1750, 45.04", "2000, 57.41"})
    void lruHitRatioOnGliMatchesPublishedValue(int capacity, String percent) {
        long hits = Replay.hits(new Lru(capacity), GLI);
        assertEquals(percent, String.format(Locale.ROOT, "%.2f", 100.0 * hits / GLI.length),
                "hit ratio in % of " + GLI.length + " requests, " + hits + " hits");
    }
}
