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
 * L1 when nothing can be evicted: the actor reads and holds eight new 4 KiB blocks in a 16 KiB cache, so its
 * allocations overflow the target severely and queue eviction waiters, but every cached block is held and the evict
 * zthr evicts nothing; a pass that evicts nothing must release every waiter (fact sheet d.7), so the actor returns.
 * The signal holds a ninth block at the same time, racing a second allocation and waiter; the reader closes the
 * cache when done. The cache comes from
 * {@link Arcs#smallCacheWithEvictZthr()}.
 */
@JCStressTest(Mode.Termination)
@Description("L1: eviction waiters when every cached block is held")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "The evictor found nothing to evict and released every waiter; the reader returned.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "A waiter was never released although nothing could ever be evicted.")
@State
public class EvictionWaiterNothingEvictableTest {
    private final ConcurrentArc<Long> arc = Arcs.smallCacheWithEvictZthr();

    @Actor
    public void reader() {
        for (long key = 0; key < 8; key++) {
            arc.read(key, Arcs.BLOCK, ReadKind.DEMAND, true, k -> k);
        }
        arc.close();
    }

    /** Holds a ninth block, unless the reader already finished and closed the cache. */
    @Signal
    public void holdAnother() {
        try {
            arc.read(100, Arcs.BLOCK, ReadKind.DEMAND, true, k -> k);
        } catch (IllegalStateException readerFinishedFirst) {
            return;
        }
    }
}
