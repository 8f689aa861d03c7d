package org.arcref.explore;

import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.zfs.Operation;

/**
 * A failing try and its shrunk operation sequence.
 *
 * @param check the check that failed
 * @param tryIndex the try's index in the try space
 * @param trySeed the try's seed: with {@code check} and the oracle's engine it determines the settings and the
 *     original operations
 * @param settings the settings
 * @param original the verdict on the original operations
 * @param originalOps the original operations
 * @param shrunk the verdict on the shrunk operations (the same rule as {@code original})
 * @param shrunkOps the shrunk operations
 * @param evaluations the candidates the shrinker tested
 */
public record Failure(CheckKind check, long tryIndex, long trySeed, ConformanceSettings settings, Verdict original,
        List<Operation> originalOps, Verdict shrunk, List<Operation> shrunkOps, int evaluations) {
}
