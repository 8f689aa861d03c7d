package org.arcref.stress.aggsum;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.aggsum.AggSum;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A5, visibility: a thread that polls {@code aggsum_lower_bound} without any lock eventually sees an add that
 * completed in another thread. The signal adds 1 to a fresh aggsum (the slow path: it borrows and lowers the lower
 * bound by the borrow less the add); the actor polls {@link AggSum#lowerBound()} until it moves. The read is the
 * lock-free one of {@code arc_is_overflowing}: with the bound's ordering lost (a plain field), the JIT may keep the
 * first value it loaded and the poll never ends.
 */
@JCStressTest(Mode.Termination)
@Description("A5: a lock-free poll of the lower bound sees an add completed in another thread")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The poll saw the new lower bound and returned.")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "The poll never saw the completed add: the lower bound's read has lost its ordering.")
@State
public class LowerBoundPublicationTest {
    private final AggSum sum = AggSums.singleBucket(0);

    @Actor
    public void poll() {
        while (sum.lowerBound() == 0) {
            // polls as a lock-free reader of the bound would
        }
    }

    @Signal
    public void add() {
        sum.add(1);
    }
}
