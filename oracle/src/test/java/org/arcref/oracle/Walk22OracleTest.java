package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Setting;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * X1's walk for zfs-2.2.0's engine ({@link Walk22}) through the real arc.c: every transition out of every state of
 * depth 0 to {@link #depth()} - 1 (a state's first path and one operation the engine accepts, as a trace of its own)
 * gives the same conformance output, every header listed, as zfs-2.2.0's arc.c, and with the three switches as
 * zfs-2.2.11's. The depth is 4 (24,413 transitions per release), 5 with {@code -Doracle.large=true} (113,136): each
 * transition is a trace, and a 2.2 oracle runs each trace in a process of its own (arc.c's function-static state). The bounds: {@link #settings()} (a cache of two 512-byte blocks, one sublist, the evictor stepped)
 * and {@link #alphabet()} (two keys, each read as data or metadata in every kind, written, completed, released,
 * overwritten and freed; shrinks, evictor and reaper steps, ticks across {@code ARC_MINTIME} and the prefetch
 * lifetime, two memory levels).
 */
class Walk22OracleTest {

    static int depth() {
        return Boolean.getBoolean("oracle.large") ? 5 : 4;
    }

    static ConformanceSettings settings() {
        return ConformanceSettings.defaults(ZfsEngine.V2_2_0).with(java.util.Map.of(Setting.ARC_C_MIN, 1024L,
                Setting.ARC_C_MAX, 1024L, Setting.SPA_MAXBLOCKSIZE, 512L, Setting.GROWTH_WINDOW, 1024L,
                Setting.SPA_OLD_MAXBLOCKSIZE, 512L, Setting.SUBLISTS, 1L, Setting.RANDOM_SEED, 2L,
                Setting.EVICTOR_RUNS_AFTER_EACH_OPERATION, 0L, Setting.ARC_SYS_FREE, 1024L));
    }

    static List<Operation> alphabet() {
        List<Operation> ops = new ArrayList<>();
        for (long key = 0; key < 2; key++) {
            for (BufType type : BufType.values()) {
                ops.add(new Operation.Read(key, 512, ReadKind.DEMAND, false, type));
                ops.add(new Operation.Read(key, 512, ReadKind.DEMAND, true, type));
                ops.add(new Operation.Read(key, 512, ReadKind.PREFETCH, false, type));
                ops.add(new Operation.Read(key, 512, ReadKind.PRESCIENT_PREFETCH, false, type));
                ops.add(new Operation.Write(key, 512, type));
            }
            ops.add(new Operation.Complete(key, false));
            ops.add(new Operation.Complete(key, true));
            ops.add(new Operation.Release(key));
            ops.add(new Operation.Overwrite(key, 1 - key));
            ops.add(new Operation.Free(key));
        }
        ops.add(new Operation.Shrink(512));
        ops.add(new Operation.Evict());
        ops.add(new Operation.Reap());
        ops.add(new Operation.Tick(63));
        ops.add(new Operation.Tick(1000));
        ops.add(new Operation.Memory(0));
        ops.add(new Operation.Memory(1L << 40));
        return ops;
    }

    @ParameterizedTest(name = "zfs-{0}")
    @EnumSource(value = ZfsRelease.class, names = {"V2_2_0", "V2_2_11"})
    void everyTransitionAgreesWithArcC(ZfsRelease release) {
        ConformanceSettings settings = settings().withFixes(release.fixes());
        Walk22 walk = new Walk22(settings, alphabet(), depth()).run();
        long ops = 0;
        long start = System.nanoTime();
        try (Oracles.Session oracle = Oracles.session(release)) {
            int i = 0;
            for (List<Operation> t : walk.transitions()) {
                String text = ConformanceTrace.text(settings, t);
                String name = "walk-" + i++;
                OracleComparison.Result r = oracle.comparison().compare(name, text, true);
                assertEquals(OracleOutput.Ending.OK, r.oracle().ending(), name + ": " + r.oracle().message());
                assertTrue(r.agrees(), () -> name + ": " + r.describe() + "\ntrace:\n" + text);
                ops += t.size();
            }
        }
        System.out.printf(Locale.ROOT, "walk of zfs-2.2.0's engine, zfs-%s: %d states to depth %d, %d transitions "
                + "(%d operations) agree with arc.c in %.1f s%n", release, walk.states(), depth(),
                walk.transitions().size(), ops, (System.nanoTime() - start) / 1e9);
        assertTrue(walk.transitions().size() > 1000, "the walk is not trivial: " + walk.transitions().size());
    }
}
