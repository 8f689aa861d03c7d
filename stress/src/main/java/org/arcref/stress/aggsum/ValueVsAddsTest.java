package org.arcref.stress.aggsum;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.aggsum.AggSum;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * A4: {@code value()} is linearizable. One thread adds 5 then 7 to a bucket that has borrowed; another reads the
 * exact value twice. Each read must be a value of the sequence 0, 5, 12 (relative to the start), and the second
 * read must not go back in time.
 */
@JCStressTest
@Description("A4: aggsum value() racing fast-path adds")
@Outcome(id = {"0, 0", "5, 5", "12, 12"}, expect = ACCEPTABLE, desc = "Both reads linearize between the same adds.")
@Outcome(id = {"0, 5", "0, 12", "5, 12"}, expect = ACCEPTABLE, desc = "The reads linearize around one or two adds, in order.")
@Outcome(expect = FORBIDDEN, desc = "A read returned a value no linearization of the adds allows, or went back in time.")
@State
public class ValueVsAddsTest {
    private final AggSum sum = AggSums.singleBucket(0);

    public ValueVsAddsTest() {
        sum.add(8);
    }

    @Actor
    public void adder() {
        sum.add(5);
        sum.add(7);
    }

    @Actor
    public void reader(JJ_Result r) {
        r.r1 = sum.value() - 8;
        r.r2 = sum.value() - 8;
    }
}
