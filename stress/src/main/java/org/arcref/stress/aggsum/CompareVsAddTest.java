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
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * A4: {@code compare()} is linearizable and leaves the core consistent. The value starts at exactly 100 with no
 * borrow; an add of 10 must borrow (slow path) while {@code compare(100)} runs, which the lock-free pre-check
 * cannot decide. The compare must return 0 (before the add) or 1 (after it), and the exact value read afterwards
 * must be 110 either way.
 */
@JCStressTest
@Description("A4: aggsum compare() racing a slow-path add")
@Outcome(id = "0, 110", expect = ACCEPTABLE, desc = "compare linearized before the add: the value was exactly 100.")
@Outcome(id = "1, 110", expect = ACCEPTABLE, desc = "compare linearized after the add: the value was 110 > 100.")
@Outcome(expect = FORBIDDEN,
        desc = "compare returned a sign no linearization allows, or wrote back bounds that lost the add.")
@State
public class CompareVsAddTest {
    private final AggSum sum = AggSums.singleBucket(100);

    @Actor
    public void adder() {
        sum.add(10);
    }

    @Actor
    public void comparer(JJ_Result r) {
        r.r1 = sum.compare(100);
    }

    @Arbiter
    public void exactValue(JJ_Result r) {
        r.r2 = sum.value();
    }
}
