package org.arcref.specs.arc;

import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.differential.ConcurrentArcDriver;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;

/**
 * The spec and a {@link ConcurrentArc} in deterministic mode driven in lock step by hand-written operations, each
 * checked by D1 ({@link ConcurrentArcDriver#follow}: same outcome, same snapshot): a scenario written for the spec
 * then pins the concurrent ARC to the same values. Both have their own {@link AdjustableMemory}, set by
 * {@link Operation.Memory}.
 */
public final class Lockstep {
    private final ZfsArc spec;
    private final ConcurrentArc<Long> arc;

    /**
     * Both with plenty of free memory and the concurrent ARC in {@link ArcOptions#deterministic()} mode.
     *
     * @param config the configuration of both
     */
    public Lockstep(ArcConfig config) {
        this(config, Long.MAX_VALUE / 8);
    }

    /**
     * @param config the configuration of both
     * @param freeMemory the free memory of both at the start
     */
    public Lockstep(ArcConfig config, long freeMemory) {
        spec = new ZfsArc(config, new AdjustableMemory(freeMemory));
        arc = new ConcurrentArc<>(config, new AdjustableMemory(freeMemory), ArcOptions.deterministic());
    }

    /**
     * Applies {@code op} to both and compares (D1).
     *
     * @param op the operation
     * @return the spec's outcome
     * @throws AssertionError starting {@code D1: } if the concurrent ARC's outcome or snapshot differs
     */
    public Outcome apply(Operation op) {
        Outcome outcome = op.applyTo(spec);
        ConcurrentArcDriver.follow(op, outcome, spec.snapshot(), arc);
        return outcome;
    }

    /** @return the spec's snapshot, which D1 found equal to the concurrent ARC's */
    public ArcSnapshot snapshot() {
        return spec.snapshot();
    }
}
