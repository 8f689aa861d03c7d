package org.arcref.specs.zfs;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.statistics.Statistics;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.BufType;
import org.arcref.zfs.check.Arc22Invariants;

/**
 * R22-1–R22-13 hold after every operation of random operation sequences on zfs-2.2.0's engine, data and metadata
 * blocks mixed, on small caches (512-byte to 2 KiB blocks, {@code arc_c} between 4 and 16 KiB) with every subset of
 * the engine's fixes; the statistics at the end show that evictions, ghost hits of both types, moves of each
 * fraction, eviction waiters, prefetch skips, holds and reductions of the target occurred (coverage is checked, so
 * a generator that stopped reaching one of them fails the property), and that zfs-2.2.0's quirk, a fraction out of
 * {@code [0, 2^32]}, is reached in runs without {@code EVICT_ADJ_OVERFLOW_17255}, where R22-2 lets it be. A failure
 * prints the setup and the op trace that reproduces it.
 *
 * <p>Run longer: {@code mvn -pl specs -am verify -Djqwik.tries.default=20000 -Dtest=Zfs22ArcInvariantProperties}.
 */
class Zfs22ArcInvariantProperties {

    @Property
    void invariantsR22HoldAfterEveryOperation(@ForAll("chains") ActionChain<Arc22UnderTest> chain) {
        Arc22UnderTest end = chain.withInvariant("R22-1-R22-13", Zfs22ArcInvariantProperties::checkInvariants).run();
        Arc22Snapshot s = end.after;
        Statistics.label("evictions").collect(s.stat(ArcStat.EVICTIONS) > 0);
        Statistics.label("metadata ghost hits").collect(s.ghostHits(ArcState.MRU_GHOST,
                BufType.METADATA) + s.ghostHits(ArcState.MFU_GHOST,
                BufType.METADATA) > 0);
        Statistics.label("data ghost hits").collect(s.ghostHits(ArcState.MRU_GHOST,
                BufType.DATA) + s.ghostHits(ArcState.MFU_GHOST,
                BufType.DATA) > 0);
        Statistics.label("arc_meta moved").collect(s.meta() != (1L << 32) / 4);
        Statistics.label("arc_pd moved").collect(s.pd() != (1L << 32) / 2);
        Statistics.label("arc_pm moved").collect(s.pm() != (1L << 32) / 2);
        Statistics.label("eviction waiters").collect(s.stat(ArcStat.EVICT_WAITS) > 0);
        Statistics.label("prefetch skips").collect(s.stat(ArcStat.EVICT_SKIP) > 0);
        Statistics.label("holds").collect(end.everHeld);
        Statistics.label("target reduced").collect(end.everReducedTarget);
        Statistics.label("a fraction out of range (the quirk)").collect(end.everOutOfRange);
        if (GeneratorCoverage.CHECKED) {
            Statistics.label("evictions").coverage(c -> c.check(true).percentage(p -> p > 50));
            Statistics.label("metadata ghost hits").coverage(c -> c.check(true).percentage(p -> p > 40));
            Statistics.label("data ghost hits").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("arc_meta moved").coverage(c -> c.check(true).percentage(p -> p > 40));
            Statistics.label("arc_pd moved").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("arc_pm moved").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("eviction waiters").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("prefetch skips").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("holds").coverage(c -> c.check(true).percentage(p -> p > 50));
            Statistics.label("target reduced").coverage(c -> c.check(true).percentage(p -> p > 20));
            Statistics.label("a fraction out of range (the quirk)").coverage(c -> c.check(true).percentage(p -> p > 3));
        }
    }

    private static void checkInvariants(Arc22UnderTest s) {
        try {
            Arc22Invariants.check(s.setup.config(), s.setup.oldMaxBlockSize(), s.setup.metaBalance(), s.before, s.lastOp, s.after);
        } catch (PropertyViolation e) {
            throw new PropertyViolation(e.property(), e.detail(), e.state() + "\n" + s.reproduction());
        }
    }

    @Provide
    Arbitrary<ActionChain<Arc22UnderTest>> chains() {
        return ArcChains.chains(Arc22UnderTest.setups(), Arc22UnderTest::new, 120);
    }
}
