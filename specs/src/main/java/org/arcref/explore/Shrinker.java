package org.arcref.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Shrinks a failing sequence to a smaller one that still fails the same way: by removal (delta debugging's
 * complement step), then by replacing single elements with simpler ones.
 *
 * <h2>Contract</h2>
 * The result is the input with elements removed (order kept) and some replaced by one of their
 * {@code simpler} variants, for which {@code reproduces} is true, provided it is true for the input. It is
 * 1-minimal (removing any single element stops it reproducing) and no single element can be replaced by a simpler
 * variant, unless the evaluation budget ran out or {@code stop} became true, in which case it is the best found so
 * far.
 */
final class Shrinker {
    /*
     * Algorithm: chunk = n/2; walk the sequence removing [start, start+chunk) and keep every removal after which the
     * candidate still reproduces (then retry at the same start), else move start on by chunk; after a walk that
     * removed nothing, halve chunk. Ends after a walk with chunk 1 that removed nothing. Removing a chunk of
     * operations can make a later one invalid (a completion of a write that no longer happens); such candidates
     * simply do not reproduce. Then each element in turn is replaced by the first of its simpler variants after
     * which the candidate reproduces, repeatedly; a replacement can enable a removal, so both phases repeat until
     * neither changes anything.
     */

    private final int maxEvaluations;
    private int evaluations;

    /** @param maxEvaluations the most candidates to test */
    Shrinker(int maxEvaluations) {
        this.maxEvaluations = maxEvaluations;
    }

    /**
     * @param failing a sequence for which {@code reproduces} is true
     * @param reproduces whether a candidate still fails the same way
     * @param simpler the simpler variants of an element, simplest first (none: an empty list)
     * @param stop polled between candidates; true returns the best found so far
     * @return the shrunk sequence
     */
    <T> List<T> shrink(List<T> failing, Predicate<List<T>> reproduces, Function<T, List<T>> simpler,
            BooleanSupplier stop) {
        List<T> current = List.copyOf(failing);
        while (true) {
            List<T> removed = removeChunks(current, reproduces, stop);
            List<T> simplified = simplify(removed, reproduces, simpler, stop);
            if (simplified.equals(current) || exhausted(stop)) {
                return simplified;
            }
            current = simplified;
        }
    }

    private boolean exhausted(BooleanSupplier stop) {
        return evaluations >= maxEvaluations || stop.getAsBoolean();
    }

    private <T> List<T> simplify(List<T> sequence, Predicate<List<T>> reproduces, Function<T, List<T>> simpler,
            BooleanSupplier stop) {
        List<T> current = sequence;
        for (int i = 0; i < current.size(); i++) {
            boolean replaced = true;
            while (replaced) {
                replaced = false;
                for (T variant : simpler.apply(current.get(i))) {
                    if (exhausted(stop)) {
                        return current;
                    }
                    List<T> candidate = new ArrayList<>(current);
                    candidate.set(i, variant);
                    evaluations++;
                    if (reproduces.test(candidate)) {
                        current = List.copyOf(candidate);
                        replaced = true;
                        break;
                    }
                }
            }
        }
        return current;
    }

    private <T> List<T> removeChunks(List<T> sequence, Predicate<List<T>> reproduces, BooleanSupplier stop) {
        List<T> current = sequence;
        int chunk = Math.max(1, current.size() / 2);
        while (true) {
            boolean removed = false;
            int start = 0;
            while (start < current.size()) {
                if (exhausted(stop)) {
                    return current;
                }
                List<T> candidate = new ArrayList<>(current.subList(0, start));
                candidate.addAll(current.subList(Math.min(current.size(), start + chunk), current.size()));
                evaluations++;
                if (!candidate.isEmpty() && reproduces.test(candidate)) {
                    current = List.copyOf(candidate);
                    removed = true;
                } else {
                    start += chunk;
                }
            }
            if (!removed) {
                if (chunk == 1) {
                    return current;
                }
                chunk /= 2;
            }
        }
    }

    /** @return the candidates tested so far */
    int evaluations() {
        return evaluations;
    }
}
