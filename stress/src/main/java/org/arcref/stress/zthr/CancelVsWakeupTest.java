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
 * Z1, Z2: cancel racing a producer's wakeup. The work function records whether it ever starts after
 * {@code cancel()} returned; afterwards no worker may exist and no work may have run after the cancel.
 */
@JCStressTest
@Description("Z1, Z2: zthr cancel racing wakeup; after cancel returns, no work runs")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "No work ran after cancel returned and no worker is left.")
@Outcome(expect = FORBIDDEN, desc = "Work ran after cancel returned, or a worker survived the cancel.")
@State
public class CancelVsWakeupTest {
    private volatile boolean cancelReturned;
    private volatile int workAfterCancel;
    private final Zthrs subject = new Zthrs(this::recordWorkAfterCancel);

    private void recordWorkAfterCancel() {
        if (cancelReturned) {
            workAfterCancel = 1;
        }
    }

    @Actor
    public void canceller() {
        subject.zthr.cancel();
        cancelReturned = true;
    }

    @Actor
    public void producer() {
        subject.requestWork();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = workAfterCancel;
        r.r2 = subject.zthr.isRunning() ? 1 : 0;
    }
}
