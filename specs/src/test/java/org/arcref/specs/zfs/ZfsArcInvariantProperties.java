package org.arcref.specs.zfs;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.statistics.Statistics;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.check.ArcInvariants;

/**
 * R1–R13 (fact sheet (f)) hold after every operation of random operation sequences on small
 * caches: 512-byte to 2 KiB blocks, {@code arc_c} between 4 and 16 KiB, so that eviction, ghost
 * hits, holds, prefetch lifetimes, shrinks, memory pressure, eviction waiters and overwrites of held blocks in
 * both branches of {@code arc_release} (a lone buffer, one of several) all occur; the
 * statistics at the end show that each did (coverage is checked, so a generator that stopped
 * reaching one of them fails the property). A failure prints the configuration and the op trace
 * that reproduces it.
 *
 * <p>Run longer: {@code mvn -pl specs -am verify -Djqwik.tries.default=20000}.
 */
class ZfsArcInvariantProperties {

    @Property
    void invariantsR1toR13HoldAfterEveryOperation(@ForAll("chains") ActionChain<ArcUnderTest> chain) {
        ArcUnderTest end = chain.withInvariant("R1-R13", ZfsArcInvariantProperties::checkInvariants).run();
        ArcSnapshot s = end.after;
        Statistics.label("evictions").collect(s.stats().get(ArcStat.EVICTIONS) > 0);
        Statistics.label("ghost hits").collect(s.stats().get(ArcStat.MRU_GHOST_HITS)
                + s.stats().get(ArcStat.MFU_GHOST_HITS) > 0);
        Statistics.label("eviction waiters").collect(s.stats().get(ArcStat.EVICT_WAITS) > 0);
        Statistics.label("prefetch skips").collect(s.stats().get(ArcStat.EVICT_SKIP) > 0);
        Statistics.label("holds").collect(end.everHeld);
        Statistics.label("target reduced").collect(end.everReducedTarget);
        Statistics.label("overwrite of a lone buffer").collect(end.everOverwroteLoneBuffer);
        Statistics.label("overwrite of one of several buffers").collect(end.everOverwroteOneOfBuffers);
        if (GeneratorCoverage.CHECKED) {
            Statistics.label("evictions").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("ghost hits").coverage(c -> c.check(true).percentage(p -> p > 20));
            Statistics.label("eviction waiters").coverage(c -> c.check(true).percentage(p -> p > 5));
            Statistics.label("prefetch skips").coverage(c -> c.check(true).percentage(p -> p > 5));
            Statistics.label("holds").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("target reduced").coverage(c -> c.check(true).percentage(p -> p > 10));
            Statistics.label("overwrite of a lone buffer").coverage(c -> c.check(true).percentage(p -> p > 30));
            Statistics.label("overwrite of one of several buffers").coverage(c -> c.check(true).percentage(p -> p > 15));
        }
    }

    private static void checkInvariants(ArcUnderTest s) {
        try {
            ArcInvariants.check(s.config, s.before, s.lastOp, s.lastOutcome, s.after);
        } catch (PropertyViolation e) {
            throw new PropertyViolation(e.property(), e.detail(), e.state() + "\n" + s.reproduction());
        }
    }

    @Provide
    Arbitrary<ActionChain<ArcUnderTest>> chains() {
        return ArcChains.chains(ArcUnderTest::new);
    }
}
