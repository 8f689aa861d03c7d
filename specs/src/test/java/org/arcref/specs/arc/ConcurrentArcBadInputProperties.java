package org.arcref.specs.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.arcref.arc.ArcOptions;
import org.arcref.arc.ConcurrentArc;
import org.arcref.arc.EvictorMode;
import org.arcref.differential.Lockstep;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsArc;

/**
 * B1 for the concurrent ARC: every bad operation is rejected with the same exception and message as the spec
 * (which {@code BadInputProperties} checks names the argument, the rule and the value), and leaves the state
 * unchanged and equal to the spec's; bad constructor arguments, a null loader or value, a loader returning null
 * and every operation after {@code close()} are rejected with named rules.
 */
class ConcurrentArcBadInputProperties {

    /** One sublist: eviction takes the oldest header, so the blocks the set-up reads last stay cached. */
    private static final ArcConfig CONFIG = ArcConfig.small(4096, 8192, 2048).withSublists(1);
    private static final String CLOSED = "ConcurrentArc must be open, was closed";

    @Provide
    Arbitrary<Operation> badOperations() {
        return Arbitraries.of(List.of(
                new Operation.Read(1, 0, ReadKind.DEMAND, false),
                new Operation.Read(1, 4096, ReadKind.DEMAND, false),
                new Operation.Read(1, 1000, ReadKind.DEMAND, false),
                new Operation.Read(1, 512, null, false),
                new Operation.Read(1, 512, ReadKind.PREFETCH, true),
                new Operation.Read(0, 1024, ReadKind.DEMAND, false),
                new Operation.Read(99, 512, ReadKind.DEMAND, false),
                new Operation.Write(0, 512),
                new Operation.Write(99, 512),
                new Operation.Write(5, 513),
                new Operation.Complete(7, false),
                new Operation.Release(0),
                new Operation.Release(12345),
                new Operation.Overwrite(0, 50),
                new Operation.Overwrite(12345, 50),
                new Operation.Overwrite(99, 50),
                new Operation.Overwrite(1, 99),
                new Operation.Overwrite(1, 0),
                new Operation.Overwrite(1, 1),
                new Operation.Shrink(-1),
                new Operation.Tick(-5),
                new Operation.Memory(-1)));
    }

    @Property(tries = 200)
    void b1RejectsAsTheSpecAndChangesNothing(@ForAll("badOperations") Operation bad,
            @ForAll @IntRange(min = 0, max = 30) int warmUpReads) {
        ZfsArc spec = new ZfsArc(CONFIG, new AdjustableMemory(1L << 40));
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, new AdjustableMemory(1L << 40),
                ArcOptions.deterministic());
        for (long k = 0; k < warmUpReads; k++) {
            Operation read = new Operation.Read(k, 512, ReadKind.DEMAND, false);
            assertEquals(read.applyTo(spec), Lockstep.applyTo(arc, read));
        }
        for (Operation setUp : List.of(new Operation.Read(0, 512, ReadKind.DEMAND, false),
                new Operation.Read(1, 512, ReadKind.DEMAND, true), new Operation.Write(99, 512))) {
            assertEquals(setUp.applyTo(spec), Lockstep.applyTo(arc, setUp));
        }
        ArcSnapshot before = spec.snapshot();
        RuntimeException expected = assertThrows(RuntimeException.class, () -> bad.applyTo(spec));
        RuntimeException actual = assertThrows(RuntimeException.class, () -> Lockstep.applyTo(arc, bad),
                String.valueOf(bad));
        assertEquals(expected.getClass(), actual.getClass(), "B1: " + String.valueOf(bad));
        assertEquals(expected.getMessage(), actual.getMessage(), "B1: " + String.valueOf(bad));
        assertEquals(before, arc.snapshot(), "B1: a rejected operation must leave the state unchanged");
    }

    @Example
    void b1ArgumentsOfTheConcurrentArcItself() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), ArcOptions.deterministic());
        ArcSnapshot before = arc.snapshot();
        expect(IllegalArgumentException.class, () -> arc.read(1, 512, ReadKind.DEMAND, false, null),
                "loader must not be null");
        expect(IllegalStateException.class, () -> arc.read(1, 512, ReadKind.DEMAND, false, k -> null),
                "loader must not return null, returned null for key 1");
        expect(IllegalArgumentException.class, () -> arc.write(1, 512, null), "value must not be null");
        expect(IllegalArgumentException.class, () -> arc.overwrite(1, 2, null), "value must not be null");
        expect(IllegalStateException.class, () -> arc.setFreeMemory(10), "memory model must be an AdjustableMemory");
        assertEquals(before, arc.snapshot());
        expect(IllegalArgumentException.class, () -> new ConcurrentArc<Long>(null, MemoryModel.plentiful(),
                ArcOptions.deterministic()), "config must not be null");
        expect(IllegalArgumentException.class, () -> new ConcurrentArc<Long>(CONFIG, null,
                ArcOptions.deterministic()), "memory must not be null");
        expect(IllegalArgumentException.class, () -> new ArcOptions(true, EvictorMode.STEPPED, false, 3),
                "hashLocks must be a power of two, was 3");
        expect(IllegalArgumentException.class, () -> ArcOptions.zfs().withEvictorPriority(null),
                "evictorPriority must not be null");
        expect(IllegalArgumentException.class, () -> new ArcOptions(true, null, false, 4),
                "evictor must not be null");
        expect(IllegalStateException.class, arc::awaitEvictorIdle, "awaitEvictorIdle needs an evict zthr");
        try (ConcurrentArc<Long> threaded = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), ArcOptions.zfs())) {
            expect(IllegalStateException.class, threaded::evictorStep, "evictorStep needs a stepped evictor");
            threaded.close();
            expect(IllegalStateException.class, threaded::awaitEvictorIdle, CLOSED);
        }
    }

    @Example
    void b1EveryOperationAfterCloseIsRejected() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, new AdjustableMemory(1L << 40),
                ArcOptions.deterministic());
        arc.read(1, 512, ReadKind.DEMAND, true, k -> k);
        arc.write(2, 512, 2L);
        arc.close();
        ArcSnapshot closed = arc.snapshot();
        List<Runnable> operations = List.of(
                () -> arc.read(1, 512, ReadKind.DEMAND, false, k -> k),
                () -> arc.write(3, 512, 3L),
                () -> arc.completeWrite(2, false),
                () -> arc.release(1),
                () -> arc.overwrite(1, 4, 4L),
                () -> arc.free(1),
                () -> arc.lookup(1),
                () -> arc.reduceTargetSize(0),
                arc::evictorStep,
                arc::reapStep,
                () -> arc.tick(1),
                () -> arc.setFreeMemory(1L << 40));
        for (Runnable operation : operations) {
            expect(IllegalStateException.class, operation, CLOSED);
        }
        assertEquals(closed, arc.snapshot(), "B1: an operation rejected after close() changed the state");
        arc.close();
        assertEquals(closed, arc.snapshot(), "close() is idempotent");
    }

    private static void expect(Class<? extends RuntimeException> type, Runnable r, String prefix) {
        RuntimeException e = assertThrows(type, r::run, prefix);
        if (!e.getMessage().startsWith(prefix)) {
            throw new AssertionError("expected a message starting with '" + prefix + "', was: " + e.getMessage());
        }
    }
}
