package org.arcref.stress.aggsum;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.aggsum.AggSum;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A5: the lock-free bounds are sound for every add that completed before the read, here the reader's own. Two
 * adders share one bucket of a fresh aggsum (V = 100, nothing borrowed); each adds 10, then 1000, then reads both
 * bounds lock-free and reports whether they admit a value consistent with what it knows: its own adds completed
 * (V ≥ 1110) and the other's may or may not have (V ≤ 2120). No flag or lock orders the reads after the other
 * adder's work: each adder's only ordering is its own program order and the bucket lock its adds took.
 *
 * <p>Each add that exceeds the bucket's borrow takes the slow path, which re-borrows; the other adder's add can
 * then fit the new borrow and take the fast path. The slow path must publish the new bounds before it drops the
 * bucket lock: with 2.1.1's order (the bounds stored after the unlock) a fast-path add inside the new borrow can
 * complete, and its adder read bounds that include neither the borrow nor its add, an upper bound below its own
 * completed adds.
 */
@JCStressTest
@Description("A5: each of two adders sharing a bucket finds its own completed adds inside the lock-free bounds")
@Outcome(id = "1, 1", expect = ACCEPTABLE,
        desc = "Both adders read bounds that admit a value consistent with their own completed adds.")
@Outcome(expect = FORBIDDEN,
        desc = "An adder read an upper bound below its own completed adds, or a lower bound above every possible "
                + "value: the bounds are unsound.")
@State
public class BoundsSoundnessTest {
    private static final long INITIAL = 100;
    private static final long OWN = 10 + 1000;

    private final AggSum sum = AggSums.singleBucket(INITIAL);

    @Actor
    public void first(II_Result r) {
        r.r1 = addAndCheck();
    }

    @Actor
    public void second(II_Result r) {
        r.r2 = addAndCheck();
    }

    /** Adds 10 and 1000, then reads both bounds; 1 if they admit a value in [V with own adds, V with all adds]. */
    private int addAndCheck() {
        sum.add(10);
        sum.add(1000);
        long upper = sum.upperBound();
        long lower = sum.lowerBound();
        boolean upperSound = Long.compareUnsigned(upper, INITIAL + OWN) >= 0;
        boolean lowerSound = lower <= INITIAL + 2 * OWN;
        return upperSound && lowerSound ? 1 : 0;
    }
}
