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
 * A5, visibility: a thread that polls {@code aggsum_upper_bound} without any lock eventually sees an add that
 * completed in another thread. The signal adds 1 to a fresh aggsum (the slow path: it borrows and raises the upper
 * bound); the actor polls {@link AggSum#upperBound()} until it moves. The read is the lock-free one of
 * {@code arc_get_data_impl}'s and {@code arc_adapt}'s growth checks: with the bound's ordering lost (a plain
 * field), the JIT may keep the first value it loaded and the poll never ends.
 */
@JCStressTest(Mode.Termination)
@Description("A5: a lock-free poll of the upper bound sees an add completed in another thread")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The poll saw the new upper bound and returned.")
@Outcome(id = "STALE", expect = FORBIDDEN,
        desc = "The poll never saw the completed add: the upper bound's read has lost its ordering.")
@State
public class UpperBoundPublicationTest {
    private final AggSum sum = AggSums.singleBucket(0);

    @Actor
    public void poll() {
        while (sum.upperBound() == 0) {
            // polls as a lock-free reader of the bound would
        }
    }

    @Signal
    public void add() {
        sum.add(1);
    }
}
