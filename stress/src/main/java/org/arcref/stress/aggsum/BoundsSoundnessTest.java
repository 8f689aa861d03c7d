package org.arcref.stress.aggsum;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.aggsum.AggSum;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A5: the lock-free bounds are sound for every add that completed before the read. One bucket holds a borrow of
 * 16 from the constructor's add; the adder's first add fits it (fast path), its second does not (slow path), and
 * then it publishes that it is done. The reader reads the flag, then both bounds, and reports whether each bound
 * admits a value consistent with what it saw: V is 101, 111 or 131, and exactly 131 once the flag is seen.
 */
@JCStressTest
@Description("A5: aggsum bounds read lock-free while fast- and slow-path adds complete")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE,
        desc = "The reader did not see the adds finish, and both bounds admit some value they may have left.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE,
        desc = "The reader saw the adds finish, and both bounds admit the final value 131.")
@Outcome(expect = FORBIDDEN,
        desc = "A bound excludes every value consistent with the adds completed before the read: the bounds are unsound.")
@State
public class BoundsSoundnessTest {
    private final AggSum sum = AggSums.singleBucket(100);
    private volatile int done;

    public BoundsSoundnessTest() {
        sum.add(1);
    }

    @Actor
    public void adder() {
        sum.add(10);
        sum.add(20);
        done = 1;
    }

    @Actor
    public void reader(III_Result r) {
        int seen = done;
        long upper = sum.upperBound();
        long lower = sum.lowerBound();
        r.r1 = seen;
        r.r2 = Long.compareUnsigned(upper, seen == 1 ? 131 : 101) >= 0 ? 1 : 0;
        r.r3 = lower <= 131 ? 1 : 0;
    }
}
