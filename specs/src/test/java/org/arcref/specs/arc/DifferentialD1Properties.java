package org.arcref.specs.arc;

import java.util.Optional;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.ActionChain;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.BrokenArcs;
import org.arcref.arc.ConcurrentArc;
import org.arcref.differential.ConcurrentArcDriver;
import org.arcref.specs.zfs.ArcChains;
import org.arcref.specs.zfs.ArcUnderTest;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;

/**
 * D1, the exact differential: the {@link ConcurrentArc} in {@linkplain ArcOptions#deterministic() deterministic
 * mode}, driven by one thread with the same random operation sequences as the spec's invariant property (small
 * caches, every operation, quirk switches on and off, both evictor schedules, both {@code arc_p} growth checks, one
 * or 2048 hash locks), returns the spec's outcome and the spec's full snapshot after every operation, and every
 * read returns its key's value (N1). A failure prints the configuration and the op trace. The broken variant
 * without {@code MAX} in the waiter count (#11285) must be caught.
 */
class DifferentialD1Properties {

    /** The D1 check of one chain: each operation is applied to both and the results compared. */
    static final class D1Follower implements ArcUnderTest.Follower {
        private final ConcurrentArc<Long> arc;

        D1Follower(ConcurrentArc<Long> arc) {
            this.arc = arc;
        }

        @Override
        public void follow(ArcUnderTest spec) {
            try {
                ConcurrentArcDriver.follow(spec.lastOp(), spec.lastOutcome(), spec.after(), arc);
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + spec.reproduction(), e);
            }
        }
    }

    @Property
    void d1SameOutcomeAndSnapshotAfterEveryOperation(@ForAll("chains") ActionChain<ArcUnderTest> chain) {
        chain.run();
    }

    @Provide
    Arbitrary<ActionChain<ArcUnderTest>> chains() {
        return ArcChains.chains(following(config -> new ConcurrentArc<>(config,
                new AdjustableMemory(ArcUnderTest.INITIAL_FREE_MEMORY),
                ConcurrentArcDriver.deterministicOptions(config.seed()))));
    }

    /**
     * D1 can fail: the variant whose waiter count lacks {@code MAX(last, arc_evict_count)} (#11285) releases
     * waiters early, and D1 finds a sequence where that changes a snapshot within 300 generated chains.
     */
    @Example
    void d1CatchesTheWaiterCountWithoutMax() {
        Arbitrary<ActionChain<ArcUnderTest>> broken = ArcChains.chains(following(config ->
                BrokenArcs.waiterCountWithoutMax(config, new AdjustableMemory(ArcUnderTest.INITIAL_FREE_MEMORY),
                        ArcOptions.deterministic())));
        Optional<Throwable> caught = broken.sampleStream().limit(300).map(chain -> {
            try {
                chain.run();
                return null;
            } catch (AssertionError e) {
                return d1Failure(e);
            }
        }).filter(e -> e != null).findFirst();
        if (caught.isEmpty()) {
            throw new AssertionError("D1 did not catch the waiter count without MAX (#11285) in 300 chains");
        }
        System.out.println("D1 caught the #11285 variant: " + caught.get().getMessage().lines().findFirst()
                .orElse(""));
    }

    /** @return the D1 failure in {@code e}'s causes (jqwik wraps it with the chain's actions), or null */
    private static Throwable d1Failure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().startsWith("D1:")) {
                return t;
            }
        }
        return null;
    }

    private static Function<ArcConfig, ArcUnderTest> following(Function<ArcConfig, ConcurrentArc<Long>> arcs) {
        return config -> new ArcUnderTest(config, new D1Follower(arcs.apply(config)));
    }
}
