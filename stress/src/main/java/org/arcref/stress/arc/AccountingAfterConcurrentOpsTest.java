package org.arcref.stress.arc;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.EvictorMode;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.ReadKind;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * N1: no lost bytes. Two threads read, hold, release and free overlapping 1 KiB blocks of a 4 KiB cache, and
 * evict inline (a stepped evictor that runs after each operation), so that state changes, eviction and frees of
 * the same headers race. At quiescence {@code arc_size} must equal the sum of the anon, MRU and MFU sizes, which
 * must equal the bytes the headers hold; and every read must have returned its own key's value. The cache comes
 * from {@link Arcs}: profile {@code jcstress-broken} runs this scenario on {@code BrokenArcs#unlockedSizeUpdate}.
 */
@JCStressTest
@Description("N1: accounting after concurrent reads, holds, frees and inline eviction")
@Outcome(id = "true, true", expect = ACCEPTABLE, desc = "The accounting adds up and every read returned its key's value.")
@Outcome(id = "false, true", expect = FORBIDDEN, desc = "Bytes were lost or counted twice: arc_size, the state sizes and the held data disagree.")
@Outcome(id = {"true, false", "false, false"}, expect = FORBIDDEN, desc = "A read returned another key's value.")
@State
public class AccountingAfterConcurrentOpsTest {
    private static final long BLOCK = 1024;

    private final ConcurrentArc<Long> arc = Arcs.create(ArcConfig.small(4096, 4096, BLOCK),
            MemoryModel.plentiful(), new ArcOptions(false, EvictorMode.STEPPED, false, 4));
    private volatile boolean valuesOk = true;

    public AccountingAfterConcurrentOpsTest() {
        for (long key = 0; key < 4; key++) {
            read(key, false);
        }
    }

    private void read(long key, boolean hold) {
        if (arc.read(key, BLOCK, ReadKind.DEMAND, hold, k -> k * 10).value() != key * 10) {
            valuesOk = false;
        }
    }

    @Actor
    public void holder() {
        read(1, true);
        read(4, false);
        arc.free(2);
        arc.release(1);
    }

    @Actor
    public void freer() {
        read(2, false);
        arc.free(1);
        read(5, true);
        arc.release(5);
    }

    @Arbiter
    public void check(ZZ_Result r) {
        ArcSnapshot s = arc.snapshot();
        long states = s.state(ArcState.ANON).size() + s.state(ArcState.MRU).size() + s.state(ArcState.MFU).size();
        long resident = s.headers().stream().filter(h -> !h.state().isGhost())
                .mapToLong(HeaderSnapshot::accountedSize).sum();
        r.r1 = s.size() == states && states == resident;
        r.r2 = valuesOk;
    }
}
