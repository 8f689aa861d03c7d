package org.arcref.stress.arc;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.arc.ConcurrentArc;
import org.arcref.zfs.ReadKind;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * L1: a thread waiting for eviction always returns. The actor reads eight new 4 KiB blocks into a 16 KiB cache,
 * so its allocations overflow the target severely and queue eviction waiters for the evict zthr; the signal
 * shrinks the target while they wait, racing the waiter queue and the evictor's pass. Every waiter must be
 * released (by count, by a pass that ends eviction, or because nothing is left to evict), so the actor returns.
 * The cache comes from {@link Arcs#smallCacheWithEvictZthr()}: profile {@code jcstress-broken} runs this
 * scenario on {@code BrokenArcs#lostWakeup}.
 */
@JCStressTest(Mode.Termination)
@Description("L1: eviction waiters racing the evict zthr and a target shrink")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Every eviction waiter was released and the reader returned.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "A waiter was never released: the reader waits for eviction forever.")
@State
public class EvictionWaiterTerminationTest {
    private final ConcurrentArc<Long> arc = Arcs.smallCacheWithEvictZthr();

    @Actor
    public void reader() {
        for (long key = 0; key < 8; key++) {
            arc.read(key, Arcs.BLOCK, ReadKind.DEMAND, false, k -> k);
        }
        arc.close();
    }

    /** Shrinks the target, unless the reader already finished and closed the cache. */
    @Signal
    public void shrink() {
        try {
            arc.reduceTargetSize(8L << 10);
        } catch (IllegalStateException readerFinishedFirst) {
            return;
        }
    }
}
