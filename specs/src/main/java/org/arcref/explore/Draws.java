package org.arcref.explore;

import java.util.Arrays;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.Operation;

/**
 * The draws the random generators ({@link RandomScenario}, {@link Random22Scenario}, {@link RandomSettings}) share,
 * each a function of the generator's state only, and how a generator applies what it drew.
 *
 * <p>{@link #edged}: a value of a range with its edges weighted. Two draws in eight take an edge (the range's
 * least and greatest value, or one of the given values that lies in the range, each as likely); one in eight is
 * log-uniform over the whole range (a bit length uniform between the least's and the greatest's, then a value of that
 * length uniform within the range), so that every order of magnitude of a wide range is reached; the other five are
 * uniform over the range's typical part, from its least value to a given typical greatest.
 */
final class Draws {

    private Draws() {
    }

    /** @param r the generator @param values the choices, at least one @return one of them, each as likely */
    static long pick(SplitMix64 r, long... values) {
        return values[r.nextIndex(values.length)];
    }

    /**
     * @param r the generator
     * @param lo the least value
     * @param hi the greatest value, at least {@code lo}
     * @return a value uniform in {@code [lo, hi]}
     */
    static long between(SplitMix64 r, long lo, long hi) {
        long span = hi - lo + 1;
        if (span > 0) {
            return lo + Long.remainderUnsigned(r.nextLong(), span);
        }
        long v;
        do { // a span of more than 2^63 values: more than half of all draws lie in it
            v = r.nextLong();
        } while (v < lo || v > hi);
        return v;
    }

    /**
     * @param r the generator
     * @param lo the least value, at least 0
     * @param hi the greatest value, at least {@code lo}
     * @return a value of {@code [lo, hi]} whose bit length is uniform between {@code lo}'s and {@code hi}'s
     */
    static long logUniform(SplitMix64 r, long lo, long hi) {
        int bits = (int) between(r, bitLength(lo), bitLength(hi));
        long least = bits == 0 ? 0 : 1L << (bits - 1);
        long greatest = bits == 63 ? Long.MAX_VALUE : (1L << bits) - 1;
        return between(r, Math.max(lo, least), Math.min(hi, greatest));
    }

    /**
     * A value of {@code [lo, hi]}, edges weighted (the class comment gives the weights).
     *
     * @param r the generator
     * @param lo the least value, at least 0
     * @param hi the greatest value, at least {@code lo}
     * @param typicalHi the greatest value of the typical part (clamped to the range)
     * @param edges further edges; those outside the range are left out
     * @return the value
     */
    static long edged(SplitMix64 r, long lo, long hi, long typicalHi, long... edges) {
        int x = r.nextIndex(8);
        if (x < 2) {
            long[] inRange = Arrays.stream(edges).filter(e -> e >= lo && e <= hi).toArray();
            long[] all = Arrays.copyOf(new long[] {lo, hi}, 2 + inRange.length);
            System.arraycopy(inRange, 0, all, 2, inRange.length);
            return pick(r, all);
        }
        if (x < 3) {
            return logUniform(r, lo, hi);
        }
        return between(r, lo, Math.max(lo, Math.min(hi, typicalHi)));
    }

    /**
     * Applies a drawn operation to the engine the generator draws from.
     *
     * @param arc the engine, in the state the operation was drawn from
     * @param op the operation
     * @param index its index in the sequence, from 0
     * @throws IllegalArgumentException naming the operation (its number from 1 and its trace line) and why, if the
     *     engine rejects it: settings changed after the draw ({@code arc gen --set}) may make it invalid
     */
    static void apply(ArcOperations arc, Operation op, int index) {
        try {
            op.applyTo(arc);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new IllegalArgumentException("the spec rejects generated operation " + (index + 1) + " \""
                    + op.toTraceLine() + "\" under the given settings: " + e.getMessage(), e);
        }
    }

    private static int bitLength(long v) {
        return 64 - Long.numberOfLeadingZeros(v);
    }
}
