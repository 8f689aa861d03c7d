package org.arcref.stress.aggsum;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.stress.Variants;

/** Creates the aggsum under test: {@link AggSum} unless {@value Variants#AGGSUM_PROPERTY} names a variant. */
final class AggSums {
    private static final MethodHandle FACTORY = Variants.factory(Variants.AGGSUM_PROPERTY, AggSum.class,
            MethodType.methodType(AggSum.class, long.class, AggSumLayout.class));

    private AggSums() {
    }

    /** An aggsum with one bucket, so that every actor shares it and fast and slow paths race. */
    static AggSum singleBucket(long initialValue) {
        return Variants.invoke(FACTORY, AggSum.class, initialValue, AggSumLayout.singleBucket());
    }
}
