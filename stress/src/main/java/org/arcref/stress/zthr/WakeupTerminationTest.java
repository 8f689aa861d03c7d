package org.arcref.stress.zthr;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.CountDownLatch;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Z2, Z5: a wakeup is never lost. The actor publishes work, wakes the zthr and waits until two units of work are
 * served; the signal publishes the second unit and wakes the zthr while the worker may be between its check and
 * its sleep. If that wakeup were lost, the worker would sleep with work pending and the actor would wait forever.
 */
@JCStressTest(Mode.Termination)
@Description("Z2, Z5: zthr wakeup racing the worker's check-then-sleep")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Both wakeups were seen: all work was served and the actor returned.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "A wakeup was lost: work is pending, the worker sleeps and the actor waits forever.")
@State
public class WakeupTerminationTest {
    private final CountDownLatch bothServed = new CountDownLatch(1);
    private final Zthrs subject = new Zthrs(this::countDownWhenBothServed);

    private void countDownWhenBothServed() {
        if (subject.served.get() >= 2) {
            bothServed.countDown();
        }
    }

    @Actor
    public void producerAndWaiter() throws InterruptedException {
        subject.requestWork();
        bothServed.await();
        subject.zthr.cancel();
    }

    @Signal
    public void secondProducer() {
        subject.requestWork();
    }
}
