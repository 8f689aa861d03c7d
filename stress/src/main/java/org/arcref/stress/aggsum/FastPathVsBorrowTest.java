package org.arcref.stress.aggsum;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.aggsum.AggSum;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.J_Result;

/**
 * A1, A2, A6: a fast-path add and a slow-path borrow race in the same bucket. The bucket has borrowed 128 (from
 * the constructor's add of 8); an add of 100 fits it, an add of 1000 must borrow and fold the bucket's delta into
 * the core. Whatever the interleaving, after both the exact value must count each delta once.
 */
@JCStressTest
@Description("A1, A2, A6: fast path and slow-path borrow in one bucket")
@Outcome(id = "1100", expect = ACCEPTABLE, desc = "Both deltas were counted exactly once, whichever path each took.")
@Outcome(expect = FORBIDDEN, desc = "A delta was lost or counted twice when the fast path raced the borrow.")
@State
public class FastPathVsBorrowTest {
    private final AggSum sum = AggSums.singleBucket(0);

    public FastPathVsBorrowTest() {
        sum.add(8);
    }

    @Actor
    public void fastPath() {
        sum.add(100);
    }

    @Actor
    public void borrow() {
        sum.add(1000);
    }

    @Arbiter
    public void exactValue(J_Result r) {
        r.r1 = sum.value() - 8;
    }
}
