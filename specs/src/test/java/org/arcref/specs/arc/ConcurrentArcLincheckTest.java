package org.arcref.specs.arc;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * N1: the concurrent ARC's per-key operations (read, write, completion, free, lookup) are linearizable with
 * respect to a map of cached values and pending writes ({@link SequentialBlockStore}): no read or lookup returns
 * another key's value or a stale one, and the accounting adds up at quiescence. Model checking runs few
 * invocations: each builds a whole ARC under instrumentation (about 13 ms on 2 cores).
 */
class ConcurrentArcLincheckTest {

    @Test
    @DisplayName("N1: per-key operations are linearizable to a block store under stress")
    void linearizableUnderStress() {
        new StressOptions().iterations(10).invocationsPerIteration(500).threads(2).actorsPerThread(3)
                .sequentialSpecification(SequentialBlockStore.class).check(ArcKeyOperations.class);
    }

    @Test
    @DisplayName("N1: per-key operations are linearizable to a block store under model checking")
    void linearizableUnderModelChecking() {
        new ModelCheckingOptions().iterations(3).invocationsPerIteration(100).threads(2).actorsPerThread(3)
                .sequentialSpecification(SequentialBlockStore.class).check(ArcKeyOperations.class);
    }
}
