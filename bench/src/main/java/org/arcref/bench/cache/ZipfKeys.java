package org.arcref.bench.cache;

import java.util.SplittableRandom;

/**
 * A fixed sequence of keys drawn from a Zipf distribution over {@code [0, keySpace)}: key {@code k} has
 * probability proportional to {@code 1 / (k + 1)^exponent}, then every key is scrambled by a fixed bijection so
 * that popular keys are spread over the hash table and the multilist's sublists. Drawn once by inverting the
 * cumulative distribution, so a benchmark's loop is an array read.
 */
public final class ZipfKeys {
    /*
     * Overview: cdf[k] = sum_{i<=k} (i+1)^-s / H; a uniform u in [0,1) maps to the first k with cdf[k] > u
     * (binary search). Scrambling multiplies by an odd constant modulo 2^64, which is a bijection on longs; keys
     * stay distinct and the key space stays the same size.
     */

    private final long[] keys;

    /**
     * @param keySpace the number of distinct keys, at least 1
     * @param exponent the Zipf exponent, at least 0 (0 is uniform)
     * @param length how many keys to draw, at least 1
     * @param seed the seed
     * @throws IllegalArgumentException naming the argument if one is out of range
     */
    public ZipfKeys(int keySpace, double exponent, int length, long seed) {
        if (keySpace < 1) {
            throw new IllegalArgumentException("keySpace must be >= 1, was " + keySpace);
        }
        if (!(exponent >= 0)) {
            throw new IllegalArgumentException("exponent must be >= 0, was " + exponent);
        }
        if (length < 1) {
            throw new IllegalArgumentException("length must be >= 1, was " + length);
        }
        double[] cdf = new double[keySpace];
        double sum = 0;
        for (int k = 0; k < keySpace; k++) {
            sum += Math.pow(k + 1, -exponent);
            cdf[k] = sum;
        }
        SplittableRandom random = new SplittableRandom(seed);
        keys = new long[length];
        for (int i = 0; i < length; i++) {
            double u = random.nextDouble() * sum;
            int lo = 0;
            int hi = keySpace - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] > u) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            keys[i] = lo * 0x9E37_79B9_7F4A_7C15L;
        }
    }

    /** @return the number of keys drawn */
    public int length() {
        return keys.length;
    }

    /** @param i an index in {@code [0, length())} @return the i-th key */
    public long key(int i) {
        return keys[i];
    }
}
