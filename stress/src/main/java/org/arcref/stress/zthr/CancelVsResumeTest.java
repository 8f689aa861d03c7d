package org.arcref.stress.zthr;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Z1, Z4: cancel racing resume on a running zthr. The request lock orders them: either resume comes first (a
 * no-op, the worker runs) and cancel stops the worker, or cancel comes first and resume starts a new worker. The
 * arbiter reports whether a worker runs, cancels, and reports again: a final cancel always leaves none.
 */
@JCStressTest
@Description("Z1, Z4: zthr cancel racing resume")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "resume came first (a no-op), then cancel stopped the worker.")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "cancel came first, then resume started a new worker, which the final cancel stopped.")
@Outcome(expect = FORBIDDEN, desc = "A worker survived a completed cancel.")
@State
public class CancelVsResumeTest {
    private final Zthrs subject = new Zthrs(() -> { });

    @Actor
    public void canceller() {
        subject.zthr.cancel();
    }

    @Actor
    public void resumer() {
        subject.zthr.resume();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = subject.zthr.isRunning() ? 1 : 0;
        subject.zthr.cancel();
        r.r2 = subject.zthr.isRunning() ? 1 : 0;
    }
}
