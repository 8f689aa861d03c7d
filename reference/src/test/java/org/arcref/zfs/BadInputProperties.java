package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * B1: every public entry point of both engines of the spec ({@link ZfsArc}, {@link Zfs22Arc}) rejects invalid
 * arguments and configurations with an exception whose message names the argument and the rule and shows the value,
 * and a rejected operation leaves the whole state (the snapshot) unchanged.
 */
class BadInputProperties {

    /** A bad call, the argument its message must name, and the text that must show the value. */
    record BadCall(String description, Consumer<ArcOperations> call, String argument, String value) {
        @Override
        public String toString() {
            return description;
        }
    }

    /** An engine under test and how to take its snapshot. */
    record Engine(ArcOperations arc, Supplier<Object> snapshot) {
    }

    /** A bad call on an engine. */
    record Case(ZfsEngine engine, BadCall bad) {
    }

    /** @return bad calls that both engines reject alike */
    static List<BadCall> common() {
        return List.of(
                new BadCall("read size 0", a -> a.read(1000, 0, ReadKind.DEMAND, false, BufType.DATA), "size", "was 0"),
                new BadCall("read size 100", a -> a.read(1000, 100, ReadKind.DEMAND, false, BufType.DATA), "size",
                        "was 100"),
                new BadCall("read size above max", a -> a.read(1000, 4096, ReadKind.DEMAND, false, BufType.DATA),
                        "size", "was 4096"),
                new BadCall("read size not a multiple of 512", a -> a.read(1000, 1000, ReadKind.DEMAND, false,
                        BufType.DATA), "size", "was 1000"),
                new BadCall("read with a null kind", a -> a.read(1, 512, null, false, BufType.DATA), "kind", "null"),
                new BadCall("read with a null type", a -> a.read(1000, 512, ReadKind.DEMAND, false, null), "type",
                        "null"),
                new BadCall("prefetch with hold", a -> a.read(1, 512, ReadKind.PREFETCH, true, BufType.DATA), "hold",
                        "was true"),
                new BadCall("read of a cached key with another size", a -> a.read(0, 1024, ReadKind.DEMAND, false,
                        BufType.DATA), "size", "was 1024"),
                new BadCall("read of a cached data key as metadata", a -> a.read(0, 512, ReadKind.DEMAND, false,
                        BufType.METADATA), "type", "was metadata"),
                new BadCall("read of a pending write", a -> a.read(99, 512, ReadKind.DEMAND, false, BufType.DATA),
                        "key", "was 99"),
                new BadCall("write of a cached key", a -> a.write(0, 512, BufType.DATA), "key", "was 0"),
                new BadCall("write of a pending key", a -> a.write(99, 512, BufType.DATA), "key", "was 99"),
                new BadCall("write size 513", a -> a.write(5, 513, BufType.DATA), "size", "was 513"),
                new BadCall("write with a null type", a -> a.write(5, 512, null), "type", "null"),
                new BadCall("complete without a pending write", a -> a.completeWrite(7, false), "key", "was 7"),
                new BadCall("release of an unheld key", a -> a.release(0), "key", "was 0"),
                new BadCall("release of an absent key", a -> a.release(12345), "key", "was 12345"),
                new BadCall("overwrite of an unheld key", a -> a.overwrite(0, 50), "key", "was 0"),
                new BadCall("overwrite of an absent key", a -> a.overwrite(12345, 50), "key", "was 12345"),
                new BadCall("overwrite of a pending key", a -> a.overwrite(99, 50), "key", "was 99"),
                new BadCall("overwrite to a pending key", a -> a.overwrite(1, 99), "newKey", "was 99"),
                new BadCall("overwrite to a cached key", a -> a.overwrite(1, 0), "newKey", "was 0"),
                new BadCall("overwrite to the same key", a -> a.overwrite(1, 1), "newKey", "was 1"),
                new BadCall("negative shrink", a -> a.reduceTargetSize(-1), "toFree", "was -1"),
                new BadCall("negative tick", a -> a.tick(-5), "ticks", "was -5"),
                new BadCall("negative free memory", a -> a.setFreeMemory(-1), "freeMemory", "was -1"));
    }

    /**
     * @return bad calls of zfs-2.2.0's engine alone, on the metadata block 200 its set-up holds and the
     *     metadata write 198 it leaves pending
     */
    static List<BadCall> zfs22() {
        return List.of(
                new BadCall("read of a cached metadata key as data", a -> a.read(200, 512, ReadKind.DEMAND, false,
                        BufType.DATA), "type", "was data"),
                new BadCall("read of a held metadata key with another size", a -> a.read(200, 1024,
                        ReadKind.PREFETCH, false, BufType.METADATA), "size", "was 1024"),
                new BadCall("write of a cached metadata key", a -> a.write(200, 512, BufType.METADATA), "key", "was 200"),
                new BadCall("read of a pending metadata write", a -> a.read(198, 512, ReadKind.DEMAND, false,
                        BufType.METADATA), "key", "was 198"),
                new BadCall("overwrite of a held metadata block to a pending key", a -> a.overwrite(200, 198), "newKey",
                        "was 198"),
                new BadCall("uncached prefetch with hold", a -> a.read(5, 512, ReadKind.PREFETCH, true, BufType.DATA,
                        true), "hold", "was true"),
                new BadCall("uncached read of a pending write", a -> a.read(99, 512, ReadKind.DEMAND, false,
                        BufType.DATA, true), "key", "was 99"),
                new BadCall("uncached write of a cached key", a -> a.write(0, 512, BufType.DATA, true), "key",
                        "was 0"));
    }

    /** @return bad calls of zfs-2.1.1's engine alone: what only zfs-2.2.0 has */
    static List<BadCall> zfs211() {
        return List.of(
                new BadCall("uncached read", a -> a.read(5, 512, ReadKind.DEMAND, false, BufType.DATA, true),
                        "uncached", "was true"),
                new BadCall("uncached prefetch of a cached key", a -> a.read(0, 512, ReadKind.PREFETCH, false,
                        BufType.DATA, true), "uncached", "was true"),
                new BadCall("uncached write", a -> a.write(5, 512, BufType.DATA, true), "uncached", "was true"));
    }

    @Provide
    Arbitrary<Case> badCalls() {
        return Arbitraries.of(ZfsEngine.values()).flatMap(e -> Arbitraries.of(e == ZfsEngine.V2_2_0
                ? Stream.concat(common().stream(), zfs22().stream()).toList()
                : Stream.concat(common().stream(), zfs211().stream()).toList())
                .map(bad -> new Case(e, bad)));
    }

    /**
     * @param engine the engine
     * @param warmUpReads data reads of keys 0, 1, ... before the set-up
     * @return the engine after its set-up: keys 0 (data, cached) and 1 (data, held) read last, 99 a pending data
     *     write; zfs-2.2.0's engine also holds metadata key 200 and has the metadata write 198 pending
     */
    static Engine setUp(ZfsEngine engine, int warmUpReads) {
        // one sublist: eviction takes the oldest header, so the blocks the set-up reads last stay cached
        ArcConfig config = ArcConfig.small(4096, 8192, 2048).withSublists(1);
        AdjustableMemory memory = new AdjustableMemory(1L << 40);
        Engine e;
        if (engine == ZfsEngine.V2_2_0) {
            Zfs22Arc arc = new Zfs22Arc(config, 512, 500, memory);
            e = new Engine(arc, arc::snapshot);
        } else {
            ZfsArc arc = new ZfsArc(config, memory);
            e = new Engine(arc, arc::snapshot);
        }
        ArcOperations arc = e.arc();
        for (long k = 0; k < warmUpReads; k++) {
            arc.read(k, 512, ReadKind.DEMAND, false, BufType.DATA);
        }
        if (engine == ZfsEngine.V2_2_0) {
            arc.read(200, 512, ReadKind.DEMAND, true, BufType.METADATA);
            arc.write(198, 512, BufType.METADATA);
        }
        arc.read(0, 512, ReadKind.DEMAND, false, BufType.DATA);
        arc.read(1, 512, ReadKind.DEMAND, true, BufType.DATA);
        arc.write(99, 512, BufType.DATA);
        return e;
    }

    @Property(tries = 300)
    void b1RejectedOperationNamesArgumentRuleAndValueAndChangesNothing(@ForAll("badCalls") Case c,
            @ForAll @IntRange(min = 0, max = 30) int warmUpReads) {
        Engine e = setUp(c.engine(), warmUpReads);
        BadCall bad = c.bad();
        Object before = e.snapshot().get();
        RuntimeException ex = assertThrows(RuntimeException.class, () -> bad.call().accept(e.arc()),
                bad.description());
        assertTrue(ex instanceof IllegalArgumentException || ex instanceof IllegalStateException,
                "B1: " + bad + " threw " + ex);
        String msg = ex.getMessage();
        assertTrue(msg.startsWith(bad.argument() + " must") || msg.contains(bad.argument() + " must"),
                "B1: the message must name the argument '" + bad.argument() + "' and its rule: " + msg);
        assertTrue(msg.contains(bad.value()), "B1: the message must show the value '" + bad.value() + "': " + msg);
        assertEquals(before, e.snapshot().get(), "B1: a rejected operation must leave the state unchanged: " + bad
                + " on " + c.engine());
    }

    @Example
    void b1Zfs22ConfigurationsAreValidatedWithNamedRules() {
        ArcConfig config = ArcConfig.small(4096, 8192, 2048);
        MemoryModel memory = MemoryModel.plentiful();
        expect(() -> new Zfs22Arc(config, 1000, 500, memory), "oldMaxBlockSize must be a power of two, was 1000");
        expect(() -> new Zfs22Arc(config, 256, 500, memory), "oldMaxBlockSize must be in [512, ");
        expect(() -> new Zfs22Arc(config, 1L << 25, 500, memory), "oldMaxBlockSize must be in [512, ");
        expect(() -> new Zfs22Arc(config, 512, 0, memory), "metaBalance must be in [1, ");
        expect(() -> new Zfs22Arc(new ArcConfig(8192, 8192, 2048, 2048, 0, 1000, 1, 0, true, Set.of(),
                Tunables.defaults()), 512, 500, memory), "growthWindow must be 2 * maxBlockSize = 4096");
        expect(() -> new Zfs22Arc(config.withFixes(Set.of(QuirkFix.ARC_P_GROWTH_CAP_14137)), 512, 500, memory),
                "fixes must be fixes of the zfs-2.2.0 engine, was ARC_P_GROWTH_CAP_14137");
        expect(() -> new Zfs22Arc(null, 512, 500, memory), "config must not be null");
        expect(() -> new Zfs22Arc(config, 512, 500, null), "memory must not be null");
    }

    @Example
    void b1SetFreeMemoryNeedsAnAdjustableModel() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 8192, 2048), MemoryModel.plentiful());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> arc.setFreeMemory(10));
        assertTrue(e.getMessage().startsWith("memory model must be an AdjustableMemory"), e.getMessage());
    }

    @Example
    void b1ConfigurationsAreValidatedWithNamedRules() {
        expect(() -> ArcConfig.small(8192, 4096, 2048), "cMax must be in [8192, ");
        expect(() -> ArcConfig.small(1024, 8192, 2048), "cMin must be in [4096, ");
        expect(() -> ArcConfig.small(4096, 8192, 3000), "maxBlockSize must be a power of two, was 3000");
        expect(() -> ArcConfig.small(4096, 8192, 2048).withSublists(0), "sublists must be in [1, 1024], was 0");
        expect(() -> ArcConfig.pages(1, 4096), "pages must be in [2, ");
        expect(() -> ArcConfig.forMemory(1024), "allmem must be in [67108864, ");
        expect(() -> ArcConfig.small(4096, 8192, 2048).withFixes(null), "fixes must not be null");
        expect(() -> Tunables.defaults().withEvictBatchLimit(0), "evictBatchLimit must be in [1, 1048576], was 0");
        expect(() -> new Tunables(4, 7, 7, 5, 8, 200, 10, true, 1000, 6000, true, 1536), "noGrowShift must be in [0, 6], was 7");
        expect(() -> new ArcConfig(4096, 8192, 2048, 4096, 0, 8, 1, 0, true, Set.of(), Tunables.defaults()),
                "hz must be in [16, 1000000], was 8");
        expect(() -> new ZfsArc(null, MemoryModel.plentiful()), "config must not be null");
        expect(() -> ArcConfig.small(4096, 8192, 2048).withSysFree(-1), "sysFree must be in [0, ");
    }

    /** The bounds of a range are valid values: a shrink by 0 bytes is an operation, one by -1 byte is not. */
    @Example
    void b1AShrinkByNothingIsAcceptedAndByLessIsRejected() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 8192, 2048), MemoryModel.plentiful());
        long c = arc.snapshot().c();
        arc.reduceTargetSize(0);
        assertEquals(c, arc.snapshot().c(), "nothing to free, arc_c stays");
        expect(() -> arc.reduceTargetSize(-1), "toFree must be >= 0, was -1");
    }

    @Example
    void b1OperationRecordsReplayTheSameRejection() {
        ZfsArc arc = new ZfsArc(ArcConfig.small(4096, 8192, 2048), MemoryModel.plentiful());
        ArcSnapshot before = arc.snapshot();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Operation.Release(3).applyTo(arc));
        assertTrue(e.getMessage().startsWith("key must be cached and held, was 3"), e.getMessage());
        assertEquals(before, arc.snapshot());
    }

    private static void expect(Runnable r, String prefix) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run, prefix);
        assertTrue(e.getMessage().startsWith(prefix), "expected a message starting with '" + prefix + "', was: "
                + e.getMessage());
    }
}
