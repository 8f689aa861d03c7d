package org.arcref.explore;

import java.util.List;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.Operation;

/**
 * A failing try and its shrunk operation sequence.
 *
 * @param check the check that failed
 * @param tryIndex the try's index in the try space
 * @param trySeed the try's seed: with {@code check} it determines the configuration and the original operations
 * @param config the configuration
 * @param original the verdict on the original operations
 * @param originalOps the original operations
 * @param shrunk the verdict on the shrunk operations (the same rule as {@code original})
 * @param shrunkOps the shrunk operations
 * @param evaluations the candidates the shrinker tested
 */
public record Failure(CheckKind check, long tryIndex, long trySeed, ArcConfig config, Verdict original,
        List<Operation> originalOps, Verdict shrunk, List<Operation> shrunkOps, int evaluations) {
}
