package org.arcref.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.Test;

/**
 * The shrinker's simpler variants of an overwrite (a release, which has none), and of zfs-2.2.0's reads and writes
 * (their type kept, {@code uncached} dropped).
 */
class SimplerOperationsTest {

    @Test
    void anOverwriteIsSimplifiedToAReleaseOfItsBlockAndNoFurther() {
        assertEquals(List.of(new Operation.Release(3)), SimplerOperations.of(new Operation.Overwrite(3, 1000)),
                "the hold is dropped without starting a write");
        assertEquals(List.of(), SimplerOperations.of(new Operation.Release(3)));
    }

    @Test
    void aReadKeepsItsTypeAndLosesItsHoldItsKindAndUncachedOneAtATime() {
        assertEquals(List.of(new Operation.Read(5, 512, ReadKind.DEMAND, false, BufType.METADATA, true),
                        new Operation.Read(5, 512, ReadKind.DEMAND, true, BufType.METADATA, false)),
                SimplerOperations.of(new Operation.Read(5, 512, ReadKind.DEMAND, true, BufType.METADATA, true)));
        assertEquals(List.of(new Operation.Read(5, 512, ReadKind.DEMAND, false, BufType.METADATA, false)),
                SimplerOperations.of(new Operation.Read(5, 512, ReadKind.PREFETCH, false, BufType.METADATA, false)));
        assertEquals(List.of(new Operation.Write(7, 1024, BufType.METADATA, false)),
                SimplerOperations.of(new Operation.Write(7, 1024, BufType.METADATA, true)));
        assertEquals(List.of(), SimplerOperations.of(new Operation.Write(7, 1024, BufType.METADATA, false)));
    }
}
