package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.arcref.zfs.Operation;
import org.junit.jupiter.api.Test;

/** The shrinker's simpler variants of an overwrite, and that a release, its variant, has none. */
class SimplerOperationsTest {

    @Test
    void anOverwriteIsSimplifiedToAReleaseOfItsBlockAndNoFurther() {
        assertEquals(List.of(new Operation.Release(3)), SimplerOperations.of(new Operation.Overwrite(3, 1000)),
                "the hold is dropped without starting a write");
        assertEquals(List.of(), SimplerOperations.of(new Operation.Release(3)));
    }
}
