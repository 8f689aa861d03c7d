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
 * L1 on shutdown: a thread waiting for eviction returns when the cache is closed. The actor reads eight new 4 KiB
 * blocks into a 16 KiB cache, so its allocations overflow the target severely and queue eviction waiters for the
 * evict zthr; the signal closes the cache, which cancels the zthr and releases every waiter. The actor must
 * return whenever the close lands: before a read (which then throws {@link IllegalStateException}), while it waits
 * (released), or after it finished. The cache comes from
 * {@link Arcs#smallCacheWithEvictZthr()}.
 */
@JCStressTest(Mode.Termination)
@Description("L1: an eviction waiter racing the cache's shutdown")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The reader returned: released by the evictor or by the shutdown, or refused after it.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "The reader never returned: shutdown left a waiter asleep.")
@State
public class EvictionWaiterShutdownTest {
    private final ConcurrentArc<Long> arc = Arcs.smallCacheWithEvictZthr();

    @Actor
    public void reader() {
        try {
            for (long key = 0; key < 8; key++) {
                arc.read(key, Arcs.BLOCK, ReadKind.DEMAND, false, k -> k);
            }
        } catch (IllegalStateException closedBeforeARead) {
            return;
        }
    }

    @Signal
    public void shutdown() {
        arc.close();
    }
}
