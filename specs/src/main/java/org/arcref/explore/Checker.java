package org.arcref.explore;

import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.arcref.arc.ConcurrentArc;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.differential.Lockstep;
import org.arcref.oracle.OracleComparison;
import org.arcref.policy.check.C1Checker;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsPageCache;
import org.arcref.zfs.check.ArcInvariants;

/**
 * Runs one {@link CheckKind} on one operation sequence from a fresh state, and says whether it passed, failed (and
 * what), or was invalid because the spec rejected an operation. Deterministic: the same sequence on the same
 * configuration gives the same verdict, which is what makes shrinking and {@code --try-seed} reproduction work.
 */
public final class Checker {

    private final Lockstep.ConcurrentArcs concurrentArcs;
    private final OracleComparison oracle;

    /**
     * A checker whose differential compares the spec with {@link ConcurrentArc} in deterministic mode, without an
     * oracle ({@link #withOracle}).
     */
    public Checker() {
        this(ConcurrentArc::new);
    }

    /**
     * @param concurrentArcs builds the concurrent ARC the differential compares with the spec (in
     *     {@link Lockstep#deterministicOptions} of the configuration's seed); a seam through which tests substitute a
     *     deliberately broken variant
     */
    public Checker(Lockstep.ConcurrentArcs concurrentArcs) {
        this(concurrentArcs, null);
    }

    private Checker(Lockstep.ConcurrentArcs concurrentArcs, OracleComparison oracle) {
        this.concurrentArcs = concurrentArcs;
        this.oracle = oracle;
    }

    /**
     * @param comparison compares the spec with the real arc.c, for {@link CheckKind#ORACLE}
     * @return this checker with that oracle
     */
    public Checker withOracle(OracleComparison comparison) {
        return new Checker(concurrentArcs, comparison);
    }

    /**
     * @return the engine of the oracle's release, whose tries the oracle check runs ({@link Explorer#tryOf});
     *     zfs-2.1.1's without an oracle
     */
    public ZfsEngine oracleEngine() {
        return oracle == null ? ZfsEngine.V2_1_1 : oracle.engine();
    }

    /**
     * @param kind the check
     * @param settings the settings ({@link Explorer#tryOf}): zfs-2.1.1's engine's but for {@link CheckKind#ORACLE},
     *     whose are {@link #oracleEngine()}'s
     * @param ops the operations
     * @return the verdict
     * @throws IllegalStateException for {@link CheckKind#ORACLE} on a checker without an oracle ({@link #withOracle})
     * @throws IllegalArgumentException if the settings' engine is not the check's
     * @throws java.io.UncheckedIOException if the oracle process fails (no verdict on the operations)
     */
    public Verdict check(CheckKind kind, ConformanceSettings settings, List<Operation> ops) {
        if (kind == CheckKind.ORACLE && oracle == null) {
            throw new IllegalStateException("the oracle check needs the oracle binary (arc explore --oracle BINARY)");
        }
        ZfsEngine engine = kind == CheckKind.ORACLE ? oracle.engine() : ZfsEngine.V2_1_1;
        if (settings.engine() != engine) {
            throw new IllegalArgumentException("settings must be of zfs-" + engine + "'s engine for the "
                    + kind.label() + " check, were zfs-" + settings.engine() + "'s");
        }
        ArcConfig config = settings.config();
        try {
            return switch (kind) {
                case INVARIANTS -> invariants(config, ops);
                case DIFFERENTIAL -> differential(config, ops);
                case CANONICAL -> canonical(config, ops);
                case ORACLE -> oracle(settings, ops);
            };
        } catch (Invalid e) {
            return e.verdict;
        } catch (PropertyViolation e) {
            return Verdict.violated(e);
        } catch (UncheckedIOException e) {
            throw e; // the oracle process failed: no verdict on the operations
        } catch (RuntimeException | AssertionError e) {
            return Verdict.threw(e);
        }
    }

    private static Verdict invariants(ArcConfig config, List<Operation> ops) {
        ZfsArc spec = new ZfsArc(config, new AdjustableMemory(RandomScenario.INITIAL_FREE_MEMORY));
        ArcSnapshot before = spec.snapshot();
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.get(i);
            Outcome outcome = apply(i, op, spec);
            ArcSnapshot after = spec.snapshot();
            ArcInvariants.check(config, before, op, outcome, after);
            before = after;
        }
        return Verdict.PASS;
    }

    /** D1 (and N1, B1) with the spec and the concurrent ARC in {@link Lockstep}. */
    private Verdict differential(ArcConfig config, List<Operation> ops) {
        try (Lockstep both = new Lockstep(config, RandomScenario.INITIAL_FREE_MEMORY,
                Lockstep.deterministicOptions(config.seed()), concurrentArcs, eviction -> { })) {
            for (int i = 0; i < ops.size(); i++) {
                Operation op = ops.get(i);
                try {
                    both.apply(op);
                } catch (IllegalArgumentException e) {
                    throw new Invalid(i, op, "the spec rejects it: " + e.getMessage());
                }
            }
        }
        return Verdict.PASS;
    }

    /**
     * The spec's and the oracle's conformance output of the operations, as a trace naming every setting, compared
     * line by line ({@link OracleComparison}). A sequence the spec rejects (only a shrink candidate can be one) is
     * invalid; the spec is run a second time only to tell that from another failure of its run.
     */
    private Verdict oracle(ConformanceSettings settings, List<Operation> ops) {
        String text = ConformanceTrace.text(settings, ops);
        OracleComparison.Result result;
        try {
            result = oracle.compare("explore", text, false);
        } catch (TraceFormatException e) {
            ArcOperations spec = settings.newArc(evicted -> { });
            for (int i = 0; i < ops.size(); i++) {
                apply(i, ops.get(i), spec);
            }
            throw e;
        }
        if (!result.agrees()) {
            throw new PropertyViolation(Property.G1, result.describe(), "");
        }
        return Verdict.PASS;
    }

    /**
     * @param index the operation's index in its sequence, from 0
     * @return the spec's outcome of {@code op}
     * @throws Invalid if the spec rejects it (and is unchanged)
     */
    private static Outcome apply(int index, Operation op, ArcOperations spec) {
        try {
            return op.applyTo(spec);
        } catch (IllegalArgumentException e) {
            throw new Invalid(index, op, "the spec rejects it: " + e.getMessage());
        }
    }

    /** A sequence that tests nothing: the verdict {@link Verdict.Status#INVALID} naming the operation and why. */
    private static final class Invalid extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Verdict verdict;

        Invalid(int index, Operation op, String why) {
            super(null, null, false, false);
            this.verdict = Verdict.invalid("operation " + (index + 1) + " (\"" + op.toTraceLine() + "\"): " + why);
        }
    }

    /**
     * C1 for the canonical ARC, R1–R13 for the spec in page mode, and the agreement of their hits while the distinct
     * pages requested so far fit in the capacity. Only {@code tick} (the spec's clock) and demand reads of one page
     * without hold of pages {@code 0 … 2^20-1} are valid.
     */
    private static Verdict canonical(ArcConfig config, List<Operation> ops) {
        int capacity = RandomScenario.capacityOf(config);
        int keySpace = 0;
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.get(i);
            if (op instanceof Operation.Read r && r.key() >= 0 && r.key() < 1 << 20
                    && r.size() == ZfsPageCache.PAGE_SIZE && r.kind() == ReadKind.DEMAND && !r.hold()) {
                keySpace = Math.max(keySpace, (int) r.key() + 1);
            } else if (!(op instanceof Operation.Tick)) {
                throw new Invalid(i, op, "the canonical check takes only tick and demand reads of one "
                        + ZfsPageCache.PAGE_SIZE + "-byte page without hold, of keys in [0, 2^20)");
            }
        }
        ZfsArc spec = new ZfsArc(config, MemoryModel.plentiful());
        C1Checker canonical = new C1Checker(capacity, keySpace, "page mode, c=" + capacity);
        Set<Long> distinct = new HashSet<>();
        ArcSnapshot before = spec.snapshot();
        for (Operation op : ops) {
            Outcome outcome = op.applyTo(spec);
            ArcSnapshot after = spec.snapshot();
            ArcInvariants.check(config, before, op, outcome, after);
            before = after;
            if (op instanceof Operation.Read r) {
                boolean canonicalHit = canonical.access((int) r.key());
                boolean specHit = outcome.isHit();
                distinct.add(r.key());
                if (distinct.size() <= capacity && specHit != canonicalHit) {
                    throw new PropertyViolation(Property.C1, "agreement: with " + distinct.size()
                            + " distinct pages <= c=" + capacity + " the spec " + (specHit ? "hit" : "missed")
                            + " and the canonical ARC " + (canonicalHit ? "hit" : "missed") + " on "
                            + r.toTraceLine(), "");
                }
            }
        }
        return Verdict.PASS;
    }
}
