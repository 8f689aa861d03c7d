package org.arcref.differential;

import java.util.List;
import java.util.function.Consumer;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.ReadResult;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;

/**
 * The one lock-step harness of D1, the exact differential: the sequential spec and a {@link ConcurrentArc} of
 * {@code Long} values in deterministic mode, each with its own {@link AdjustableMemory}, driven by the same
 * {@link Operation}s. After every operation the spec accepts, the concurrent ARC must return the spec's outcome and
 * the spec's full snapshot (D1), and every read its key's value (N1: a block's value is a function of its key,
 * {@link #valueOf}, for the loader and for writes and overwrites, so anything else is another key's value or a stale
 * one). An operation the spec rejects must leave the spec unchanged, and the concurrent ARC must reject it too,
 * unchanged (B1). Each broken promise is a {@link PropertyViolation} naming D1, N1 or B1.
 *
 * <p>Used by the hand-written lock-step scenarios, the D1 property (specs' tests), {@code arc explore}'s differential
 * check and the exhaustive explorer (X1). Not thread-safe; {@link #close} closes the concurrent ARC.
 */
public final class Lockstep implements AutoCloseable {

    /** Creates the concurrent ARC compared with the spec: {@code ConcurrentArc::new}, or a broken variant's factory. */
    @FunctionalInterface
    public interface ConcurrentArcs {
        /**
         * @param config the spec's configuration
         * @param memory the concurrent ARC's memory model, adjustable
         * @param options deterministic options
         * @return a new concurrent ARC
         */
        ConcurrentArc<Long> create(ArcConfig config, MemoryModel memory, ArcOptions options);
    }

    /** A check of the spec's own transition, run after the spec applied an operation and before D1 compares. */
    @FunctionalInterface
    public interface SpecCheck {
        /**
         * @param before the spec's snapshot before {@code op}
         * @param op the operation
         * @param outcome the spec's outcome
         * @param after the spec's snapshot after {@code op}
         * @throws PropertyViolation if the transition breaks a property
         */
        void check(ArcSnapshot before, Operation op, Outcome outcome, ArcSnapshot after);
    }

    private final ZfsArc spec;
    private final AdjustableMemory specMemory;
    private final ConcurrentArc<Long> arc;
    private ArcSnapshot specSnapshot;

    /**
     * Both with plenty of free memory ({@code Long.MAX_VALUE / 8}), the concurrent ARC the production one in
     * {@link ArcOptions#deterministic()} mode.
     *
     * @param config the configuration of both
     */
    public Lockstep(ArcConfig config) {
        this(config, Long.MAX_VALUE / 8);
    }

    /**
     * Both with {@code freeMemory} free, the concurrent ARC the production one in {@link ArcOptions#deterministic()}
     * mode.
     *
     * @param config the configuration of both
     * @param freeMemory the free memory of both at the start
     */
    public Lockstep(ArcConfig config, long freeMemory) {
        this(config, freeMemory, ArcOptions.deterministic(), ConcurrentArc::new, eviction -> { });
    }

    /**
     * @param config the configuration of both
     * @param freeMemory the free memory of both at the start
     * @param options the concurrent ARC's options, deterministic ({@link #deterministicOptions})
     * @param arcs creates the concurrent ARC
     * @param evictionProbe told of every header the spec evicts ({@code ZfsArc}'s probe)
     */
    public Lockstep(ArcConfig config, long freeMemory, ArcOptions options, ConcurrentArcs arcs,
            Consumer<Eviction> evictionProbe) {
        specMemory = new AdjustableMemory(freeMemory);
        spec = new ZfsArc(config, specMemory, evictionProbe);
        arc = arcs.create(config, new AdjustableMemory(freeMemory), options);
        specSnapshot = spec.snapshot();
    }

    /** @param key a block identity @return the only value that block ever has */
    public static Long valueOf(long key) {
        return key * 1_000_003L + 17;
    }

    /**
     * Deterministic mode with one choice drawn from the configuration's seed (so a failure reproduces from the
     * configuration): the exact {@code arc_p} growth compare of experiment E2 or 2.1.1's upper bound (equal with an
     * exact aggsum). The hash locks are ZFS's {@code BUF_LOCKS}, over 2.1.1's {@code buf_hash}, which the spec models:
     * a header whose lock the allocating thread holds counts a {@code mutex_miss}.
     *
     * @param seed the configuration's seed
     * @return the options of the concurrent ARC compared with a spec of that seed
     */
    public static ArcOptions deterministicOptions(long seed) {
        return ArcOptions.deterministic().withExactPGrowthCompare((seed & 1) == 0);
    }

    /**
     * Applies {@code op} to both and compares (D1, N1; B1 if the spec rejects it).
     *
     * @param op the operation
     * @return the spec's outcome
     * @throws PropertyViolation D1 if the concurrent ARC's outcome or snapshot differs or it throws, N1 if a read
     *     returns a wrong value, B1 if a rejection changed a state or only one of the two rejects
     * @throws IllegalArgumentException the spec's rejection of {@code op}, after B1 held; both are unchanged
     */
    public Outcome apply(Operation op) {
        return apply(op, (before, o, outcome, after) -> { });
    }

    /**
     * Applies {@code op} to the spec, runs {@code specCheck} on the spec's transition, then applies it to the
     * concurrent ARC and compares, as {@link #apply(Operation)}.
     *
     * @param op the operation
     * @param specCheck a check of the spec's transition, which comes before D1's comparison
     * @return the spec's outcome
     * @throws PropertyViolation as {@link #apply(Operation)}, or from {@code specCheck}
     * @throws IllegalArgumentException the spec's rejection of {@code op}, after B1 held
     */
    public Outcome apply(Operation op, SpecCheck specCheck) {
        ArcSnapshot before = specSnapshot;
        long freeBefore = specMemory.freeMemory();
        Outcome outcome;
        try {
            outcome = op.applyTo(spec);
        } catch (IllegalArgumentException rejection) {
            checkRejection(op, rejection, before, freeBefore);
            throw rejection;
        }
        specSnapshot = spec.snapshot();
        specCheck.check(before, op, outcome, specSnapshot);
        Outcome concurrent;
        try {
            concurrent = applyTo(arc, op);
        } catch (PropertyViolation e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PropertyViolation(Property.D1, "the spec returned " + outcome + " on " + op.toTraceLine()
                    + " and the concurrent ARC threw " + e, "");
        }
        ArcSnapshot snapshot = arc.snapshot();
        if (concurrent != outcome || !snapshot.equals(specSnapshot)) {
            throw new PropertyViolation(Property.D1, "after " + op.toTraceLine() + " the spec returned " + outcome
                    + " and the concurrent ARC " + concurrent, "spec:       " + specSnapshot + "\nconcurrent: " + snapshot);
        }
        return outcome;
    }

    /**
     * Applies {@code ops} to both without comparing: brings the pair to a state whose transitions were checked
     * already (the exhaustive explorer's replay of a path).
     *
     * @param ops the operations, each accepted by the spec
     */
    public void replay(List<Operation> ops) {
        for (Operation op : ops) {
            op.applyTo(spec);
            applyTo(arc, op);
        }
        specSnapshot = spec.snapshot();
    }

    /** B1 for an operation the spec rejected: it is unchanged, and the concurrent ARC rejects it too, unchanged. */
    private void checkRejection(Operation op, IllegalArgumentException rejection, ArcSnapshot before,
            long freeBefore) {
        String rejected = "the spec rejected " + op.toTraceLine() + " (" + rejection.getMessage() + ")";
        ArcSnapshot after = spec.snapshot();
        if (!after.equals(before) || specMemory.freeMemory() != freeBefore) {
            throw new PropertyViolation(Property.B1, rejected + " but changed its state", "before: " + before
                    + "\nafter:  " + after);
        }
        Outcome outcome;
        try {
            outcome = applyTo(arc, op);
        } catch (IllegalArgumentException e) {
            ArcSnapshot concurrentAfter = arc.snapshot();
            if (!concurrentAfter.equals(before)) {
                throw new PropertyViolation(Property.B1, "the concurrent ARC rejected " + op.toTraceLine() + " ("
                        + e.getMessage() + ") but changed its state", "spec:       " + before + "\nconcurrent: "
                        + concurrentAfter);
            }
            return;
        } catch (RuntimeException e) {
            throw new PropertyViolation(Property.B1, rejected + " but the concurrent ARC threw " + e, "");
        }
        throw new PropertyViolation(Property.B1, rejected + " but the concurrent ARC accepted it: " + outcome, "");
    }

    /**
     * Applies one operation to a concurrent ARC of {@link #valueOf} values.
     *
     * @param arc the concurrent ARC
     * @param op an operation
     * @return the concurrent ARC's outcome of {@code op}
     * @throws PropertyViolation N1 if a read returns a value other than {@link #valueOf} its key
     * @throws IllegalArgumentException if the concurrent ARC rejects {@code op}
     */
    public static Outcome applyTo(ConcurrentArc<Long> arc, Operation op) {
        if (op instanceof Operation.Read r) {
            ReadResult<Long> result = arc.read(r.key(), r.size(), r.kind(), r.hold(), Lockstep::valueOf);
            if (!valueOf(r.key()).equals(result.value())) {
                throw new PropertyViolation(Property.N1, "read of key " + r.key() + " returned " + result.value()
                        + ", expected " + valueOf(r.key()), "");
            }
            return result.outcome();
        } else if (op instanceof Operation.Write w) {
            return arc.write(w.key(), w.size(), valueOf(w.key()));
        } else if (op instanceof Operation.Complete c) {
            return arc.completeWrite(c.key(), c.hold());
        } else if (op instanceof Operation.Release r) {
            return arc.release(r.key());
        } else if (op instanceof Operation.Overwrite o) {
            return arc.overwrite(o.key(), o.newKey(), valueOf(o.newKey()));
        } else if (op instanceof Operation.Free f) {
            return arc.free(f.key());
        } else if (op instanceof Operation.Shrink s) {
            return arc.reduceTargetSize(s.bytes());
        } else if (op instanceof Operation.Evict) {
            return arc.evictorStep();
        } else if (op instanceof Operation.Reap) {
            return arc.reapStep();
        } else if (op instanceof Operation.Tick t) {
            return arc.tick(t.ticks());
        } else if (op instanceof Operation.Memory m) {
            return arc.setFreeMemory(m.freeBytes());
        }
        throw new IllegalArgumentException("op must be one of the Operation records, was " + op);
    }

    /** @return the spec's snapshot after the last operation, which D1 found equal to the concurrent ARC's */
    public ArcSnapshot snapshot() {
        return specSnapshot;
    }

    /** @return the spec's free memory */
    public long specFreeMemory() {
        return specMemory.freeMemory();
    }

    /** @return the spec (for encodings of its state; apply operations through {@link #apply}) */
    public ZfsArc spec() {
        return spec;
    }

    /** Closes the concurrent ARC. */
    @Override
    public void close() {
        arc.close();
    }
}
