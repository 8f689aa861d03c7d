package org.arcref.explore;

import java.util.Map;

/**
 * What an exploration did.
 *
 * @param tries the tries run
 * @param triesByCheck the tries run per check
 * @param elapsedNanos how long it ran
 * @param interrupted whether it was stopped before its tries or time budget were used up
 * @param failure the first failure, or null if every try passed
 */
public record ExploreResult(long tries, Map<CheckKind, Long> triesByCheck, long elapsedNanos, boolean interrupted,
        Failure failure) {
}
