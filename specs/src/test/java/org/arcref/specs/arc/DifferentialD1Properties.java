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
import org.arcref.differential.Lockstep;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.zfs.ArcChains;
import org.arcref.specs.zfs.ArcUnderTest;
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

    /**
     * The D1 check of one chain: each operation the spec's state machine applied is applied to a {@link Lockstep}
     * pair, whose own spec and concurrent ARC are compared; a violation keeps its property and gains the chain's
     * reproduction.
     */
    static final class D1Follower implements ArcUnderTest.Follower {
        private final Lockstep both;

        D1Follower(Lockstep both) {
            this.both = both;
        }

        @Override
        public void follow(ArcUnderTest spec) {
            try {
                both.apply(spec.lastOp());
            } catch (PropertyViolation e) {
                throw new PropertyViolation(e.property(), e.detail(), e.state() + "\n" + spec.reproduction());
            }
        }
    }

    @Property
    void d1SameOutcomeAndSnapshotAfterEveryOperation(@ForAll("chains") ActionChain<ArcUnderTest> chain) {
        chain.run();
    }

    @Provide
    Arbitrary<ActionChain<ArcUnderTest>> chains() {
        return ArcChains.chains(following(ConcurrentArc::new, config -> Lockstep.deterministicOptions(config.seed())));
    }

    /**
     * D1 can fail: the variant whose waiter count lacks {@code MAX(last, arc_evict_count)} (#11285) releases
     * waiters early, and D1 finds a sequence where that changes a snapshot within 300 generated chains.
     */
    @Example
    void d1CatchesTheWaiterCountWithoutMax() {
        Arbitrary<ActionChain<ArcUnderTest>> broken = ArcChains.chains(following(BrokenArcs::waiterCountWithoutMax,
                config -> ArcOptions.deterministic()));
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

    /** @return the D1 violation in {@code e}'s causes (jqwik wraps it with the chain's actions), or null */
    private static Throwable d1Failure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PropertyViolation v && v.property() == org.arcref.property.Property.D1) {
                return t;
            }
        }
        return null;
    }

    private static Function<ArcConfig, ArcUnderTest> following(Lockstep.ConcurrentArcs arcs,
            Function<ArcConfig, ArcOptions> options) {
        return config -> new ArcUnderTest(config, new D1Follower(new Lockstep(config, ArcUnderTest.INITIAL_FREE_MEMORY,
                options.apply(config), arcs, eviction -> { })));
    }
}
