package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.arcref.zthr.ZthrPriority;
import org.junit.jupiter.api.Test;

/** The copies of {@link ArcOptions} change the one component they name and keep the others. */
class ArcOptionsTest {

    @Test
    void copiesChangeOnlyWhatTheyName() {
        ArcOptions exactWithOneLock = new ArcOptions(true, ZthrPriority.DEFCLSYSPRI, true, 1);
        assertEquals(new ArcOptions(true, ZthrPriority.MINCLSYSPRI, true, 1),
                exactWithOneLock.withEvictorPriority(ZthrPriority.MINCLSYSPRI));
        ArcOptions stepped = exactWithOneLock.withSteppedEvictor();
        assertEquals(new ArcOptions(true, null, true, 1), stepped);
        assertTrue(stepped.isStepped());
        assertEquals(new ArcOptions(true, ZthrPriority.DEFCLSYSPRI, false, 1),
                exactWithOneLock.withExactPGrowthCompare(false));
    }
}
