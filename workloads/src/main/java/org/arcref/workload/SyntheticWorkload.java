package org.arcref.workload;

import org.arcref.random.SplitMix64;

/**
 * A seeded synthetic page workload that mixes a Zipf-distributed hot set, sequential scans and a
 * repeating loop: the built-in workload for replays when no trace is at hand. The same parameters
 * (seed included) always give the same requests, on every JVM, because the generator is specified
 * here down to the random numbers.
 *
 * <h2>The key space</h2>
 * Keys are {@code 0 … keySpace-1}, split into three disjoint regions:
 * <ul>
 *   <li>hot keys {@code [0, hotSetSize)};
 *   <li>loop keys {@code [hotSetSize, hotSetSize+loopLength)};
 *   <li>scan keys {@code [hotSetSize+loopLength, keySpace)}, which must not be empty.
 * </ul>
 *
 * <h2>The mix</h2>
 * The workload is a sequence of <em>runs</em> of {@code runLength} requests each (the last run is cut
 * to make {@code length} requests in all). Before each run one uniform number {@code u} in [0, 1)
 * picks its kind: {@code u < scanFraction} a scan run, else {@code u < scanFraction + loopFraction} a
 * loop run, else a Zipf run. So in expectation those fractions of the requests are scans and loops
 * and the rest are Zipf requests.
 * <ul>
 *   <li>A <b>Zipf run</b> draws each request independently: rank {@code k} in {@code 1 … hotSetSize}
 *       with probability proportional to {@code 1/k^zipfExponent} (by inverse transform: the least
 *       {@code k} whose cumulative weight, summed in double precision from {@code k = 1}, exceeds
 *       {@code u} times the total weight), and requests hot key {@code k-1}.
 *   <li>A <b>scan run</b> requests the next {@code runLength} scan keys in increasing order from a scan
 *       cursor that persists across runs and wraps around the scan region, so scans sweep data that
 *       is rarely re-read soon: the pattern that flushes an LRU cache.
 *   <li>A <b>loop run</b> requests the next {@code runLength} loop keys from a loop cursor that
 *       persists across runs and cycles through the loop region, so each loop key recurs once every
 *       {@code loopLength} loop requests: the pattern LRU misses entirely when the loop does not fit.
 * </ul>
 *
 * <h2>Random numbers</h2>
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014) seeded with {@code seed}: state += 0x9E3779B97F4A7C15,
 * then the usual two xor-shift-multiply rounds and a final xor-shift; a uniform double is the top 53
 * bits times 2^-53. One number is drawn per run and one per Zipf request, in request order.
 *
 * <p>The constructor checks every parameter against the rule given with it below and throws an
 * {@link IllegalArgumentException} naming the parameter, the rule and the value, such as
 * {@code zipfExponent must be > 0, was -1.0}.
 *
 * <p>The {@link #defaults()} give 1,000,000 requests over 1,000,000 keys (20,000 hot keys with exponent
 * 0.9, 30 % scans, 10 % loops over 3,000 keys, runs of 1,000) on which the canonical ARC beats LRU at
 * some cache sizes.
 *
 * @param length the number of requests, in [1, {@value #MAX_LENGTH}]
 * @param keySpace the number of keys, {@code > hotSetSize + loopLength}
 * @param hotSetSize the number of hot keys, {@code >= 1}
 * @param zipfExponent the Zipf exponent of the hot set, finite and {@code > 0}
 * @param scanFraction the probability that a run is a scan, in [0, 1]
 * @param loopFraction the probability that a run is a loop, in [0, 1], with
 *     {@code scanFraction + loopFraction <= 1}
 * @param loopLength the number of keys the loop cycles through, {@code >= 1}
 * @param runLength the number of requests in one run, {@code >= 1}
 * @param seed the seed of the random numbers; any value
 */
public record SyntheticWorkload(int length, int keySpace, int hotSetSize, double zipfExponent,
        double scanFraction, double loopFraction, int loopLength, int runLength, long seed) {

    /** The largest number of requests a workload can have: the largest safe Java array. */
    public static final int MAX_LENGTH = Integer.MAX_VALUE - 8;

    public SyntheticWorkload {
        require(length >= 1 && length <= MAX_LENGTH, "length", "in [1, " + MAX_LENGTH + "]", length);
        require(hotSetSize >= 1, "hotSetSize", ">= 1", hotSetSize);
        require(loopLength >= 1, "loopLength", ">= 1", loopLength);
        require((long) keySpace > (long) hotSetSize + loopLength, "keySpace",
                "> hotSetSize + loopLength = " + ((long) hotSetSize + loopLength), keySpace);
        require(zipfExponent > 0, "zipfExponent", "> 0", zipfExponent);
        require(Double.isFinite(zipfExponent), "zipfExponent", "finite", zipfExponent);
        require(scanFraction >= 0 && scanFraction <= 1, "scanFraction", "in [0, 1]", scanFraction);
        require(loopFraction >= 0 && loopFraction <= 1, "loopFraction", "in [0, 1]", loopFraction);
        require(scanFraction + loopFraction <= 1, "scanFraction + loopFraction", "<= 1",
                scanFraction + loopFraction);
        require(runLength >= 1, "runLength", ">= 1", runLength);
    }

    /** @return the default workload described in the class comment, with seed 42 */
    public static SyntheticWorkload defaults() {
        return new SyntheticWorkload(1_000_000, 1_000_000, 20_000, 0.9, 0.3, 0.1, 3_000, 1_000, 42);
    }

    /**
     * @param newLength the number of requests, in [1, {@value #MAX_LENGTH}]
     * @return this workload with another number of requests
     */
    public SyntheticWorkload withLength(int newLength) {
        return new SyntheticWorkload(newLength, keySpace, hotSetSize, zipfExponent, scanFraction, loopFraction,
                loopLength, runLength, seed);
    }

    /**
     * @param newSeed any seed
     * @return this workload with another seed
     */
    public SyntheticWorkload withSeed(long newSeed) {
        return new SyntheticWorkload(length, keySpace, hotSetSize, zipfExponent, scanFraction, loopFraction,
                loopLength, runLength, newSeed);
    }

    /**
     * Generates the requests.
     *
     * @return {@link #length} page requests, in order
     */
    public long[] generate() {
        double[] cumulative = zipfCumulativeWeights();
        SplitMix64 random = new SplitMix64(seed);
        long loopStart = hotSetSize;
        long scanStart = loopStart + loopLength;
        long scanKeys = keySpace - scanStart;
        long loopCursor = 0;
        long scanCursor = 0;
        long[] requests = new long[length];
        for (int runStart = 0; runStart < length; runStart += runLength) {
            int runEnd = (int) Math.min(length, (long) runStart + runLength);
            double kind = random.nextDouble();
            for (int i = runStart; i < runEnd; i++) {
                if (kind < scanFraction) {
                    requests[i] = scanStart + scanCursor;
                    scanCursor = (scanCursor + 1) % scanKeys;
                } else if (kind < scanFraction + loopFraction) {
                    requests[i] = loopStart + loopCursor;
                    loopCursor = (loopCursor + 1) % loopLength;
                } else {
                    requests[i] = zipfRank(cumulative, random.nextDouble()) - 1;
                }
            }
        }
        return requests;
    }

    /** @return c with c[k-1] = sum of 1/j^zipfExponent for j = 1 … k */
    private double[] zipfCumulativeWeights() {
        double[] cumulative = new double[hotSetSize];
        double sum = 0;
        for (int k = 1; k <= hotSetSize; k++) {
            sum += 1.0 / Math.pow(k, zipfExponent);
            cumulative[k - 1] = sum;
        }
        return cumulative;
    }

    /** @return the least rank k with cumulative[k-1] > u * total */
    private static int zipfRank(double[] cumulative, double u) {
        double target = u * cumulative[cumulative.length - 1];
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulative[mid] > target) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low + 1;
    }

    private static void require(boolean valid, String argument, String rule, Object value) {
        if (!valid) {
            throw new IllegalArgumentException(argument + " must be " + rule + ", was " + value);
        }
    }
}
