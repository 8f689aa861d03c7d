package org.arcref.stress.zthr;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Z3: a {@code waitCycleDone} caller returns. The actor waits for a cycle while the signal wakes the worker, so
 * the waiter's own wakeup may arrive while the worker is between its check and its sleep.
 */
@JCStressTest(Mode.Termination)
@Description("Z3: zthr waitCycleDone racing a wakeup")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The worker finished a cycle and released the waiter.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The waiter's wakeup was lost: the worker sleeps and the waiter waits forever.")
@State
public class WaitCycleDoneTerminationTest {
    private final Zthrs subject = new Zthrs(() -> { });

    @Actor
    public void waiter() {
        subject.zthr.waitCycleDone();
        subject.zthr.cancel();
    }

    @Signal
    public void producer() {
        subject.requestWork();
    }
}
