package org.arcref.soak;

import java.util.List;
import org.arcref.arc.WaitTimes;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcSnapshot;

/**
 * What a {@link Soak} run left.
 *
 * @param snapshot the ARC's snapshot after {@code close()} (quiescence)
 * @param ops the operations completed
 * @param elapsedNanos how long the workers ran
 * @param longestOpNanos the longest single operation
 * @param evictionWaits how long allocations waited for eviction
 * @param violations every broken promise; empty if none
 * @param firstFailure the first exception a worker threw, or null
 */
public record SoakResult(ArcSnapshot snapshot, long ops, long elapsedNanos, long longestOpNanos,
        WaitTimes evictionWaits, List<PropertyViolation> violations, Throwable firstFailure) {
}
