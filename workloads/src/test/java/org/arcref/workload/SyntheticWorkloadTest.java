package org.arcref.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.arcref.policy.CanonicalArc;
import org.arcref.policy.Lru;
import org.arcref.policy.PageCache;
import org.arcref.policy.Replay;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The synthetic workload is deterministic, has the documented mix, and validates its parameters (B1). */
class SyntheticWorkloadTest {

    private static final SyntheticWorkload DEFAULTS = SyntheticWorkload.defaults();
    private static final long[] REQUESTS = DEFAULTS.generate();

    @Test
    void sameSeedGivesSameRequestsAndAnotherSeedOthers() {
        assertArrayEquals(REQUESTS, SyntheticWorkload.defaults().generate());
        assertFalse(Arrays.equals(REQUESTS, DEFAULTS.withSeed(43).generate()), "seed 43 gives the same requests as 42");
    }

    @Test
    void defaultsGiveOneMillionRequestsInTheKeySpace() {
        assertEquals(1_000_000, REQUESTS.length);
        assertTrue(Arrays.stream(REQUESTS).allMatch(key -> key >= 0 && key < DEFAULTS.keySpace()), "a key outside the key space");
        assertEquals(17, DEFAULTS.withLength(17).generate().length);
    }

    @Test
    void scansSweepTheScanRegionAndLoopsCycleTheLoopRegionInOrder() {
        long loopStart = DEFAULTS.hotSetSize();
        long scanStart = loopStart + DEFAULTS.loopLength();
        long[] loops = Arrays.stream(REQUESTS).filter(key -> key >= loopStart && key < scanStart).toArray();
        long[] scans = Arrays.stream(REQUESTS).filter(key -> key >= scanStart).toArray();
        for (int i = 0; i < loops.length; i++) {
            assertEquals(loopStart + i % DEFAULTS.loopLength(), loops[i], "loop request " + i);
        }
        for (int i = 0; i < scans.length; i++) {
            assertEquals(scanStart + i % (DEFAULTS.keySpace() - scanStart), scans[i], "scan request " + i);
        }
        assertEquals(DEFAULTS.loopFraction(), (double) loops.length / REQUESTS.length, 0.05, "loop fraction");
        assertEquals(DEFAULTS.scanFraction(), (double) scans.length / REQUESTS.length, 0.05, "scan fraction");
    }

    @Test
    void hotKeysFollowZipf() {
        long rank1 = Arrays.stream(REQUESTS).filter(key -> key == 0).count();
        long rank2 = Arrays.stream(REQUESTS).filter(key -> key == 1).count();
        assertEquals(Math.pow(2, DEFAULTS.zipfExponent()), (double) rank1 / rank2, 0.1,
                "frequency ratio of ranks 1 and 2 (" + rank1 + " / " + rank2 + ")");
    }

    @Test
    void defaultsAreAWorkloadWhereArcBeatsLru() {
        int capacity = 2_000;
        double lru = hitRatio(new Lru(capacity));
        double arc = hitRatio(new CanonicalArc(capacity));
        assertTrue(arc > lru + 0.05, "at c=" + capacity + " ARC hits " + arc + ", LRU " + lru);
    }

    private static double hitRatio(PageCache cache) {
        return (double) Replay.hits(cache, REQUESTS) / REQUESTS.length;
    }

    @ParameterizedTest(name = "{9}")
    @CsvSource(delimiter = '|', value = {
        "0  | 100 | 10 | 0.9  | 0.3 | 0.1 | 10 | 5 | 1 | length must be in [1, 2147483639], was 0",
        "10 | 100 | 0  | 0.9  | 0.3 | 0.1 | 10 | 5 | 1 | hotSetSize must be >= 1, was 0",
        "10 | 100 | 10 | 0.9  | 0.3 | 0.1 | 0  | 5 | 1 | loopLength must be >= 1, was 0",
        "10 | 20  | 10 | 0.9  | 0.3 | 0.1 | 10 | 5 | 1 | keySpace must be > hotSetSize + loopLength = 20, was 20",
        "10 | 100 | 10 | -1.0 | 0.3 | 0.1 | 10 | 5 | 1 | zipfExponent must be > 0, was -1.0",
        "10 | 100 | 10 | Infinity | 0.3 | 0.1 | 10 | 5 | 1 | zipfExponent must be finite, was Infinity",
        "10 | 100 | 10 | 0.9  | 1.5 | 0.1 | 10 | 5 | 1 | scanFraction must be in [0, 1], was 1.5",
        "10 | 100 | 10 | 0.9  | 0.3 | -0.1 | 10 | 5 | 1 | loopFraction must be in [0, 1], was -0.1",
        "10 | 100 | 10 | 0.9  | 0.5 | 0.75 | 10 | 5 | 1 | scanFraction + loopFraction must be <= 1, was 1.25",
        "10 | 100 | 10 | 0.9  | 0.3 | 0.1 | 10 | 0 | 1 | runLength must be >= 1, was 0",
    })
    void badParametersAreRejectedNamingArgumentRuleAndValue(int length, int keySpace, int hotSetSize,
            double zipfExponent, double scanFraction, double loopFraction, int loopLength, int runLength, long seed,
            String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SyntheticWorkload(length,
                keySpace, hotSetSize, zipfExponent, scanFraction, loopFraction, loopLength, runLength, seed));
        assertEquals(message, e.getMessage());
    }
}
