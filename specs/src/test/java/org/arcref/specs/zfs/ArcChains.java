package org.arcref.specs.zfs;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.BufType;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;

/**
 * The random operation sequences of the stateful properties, shared by the invariant properties of both engines
 * (R1–R13, R22-1–R22-13) and the differential property D1: reads (all kinds, with and without holds) of 24 keys and
 * of written keys, second holds on held blocks, writes of new keys, completions, releases, overwrites of held
 * blocks, frees, shrinks, evictor steps, reap steps, ticks and memory changes, each generated from the run's state
 * ({@link ChainState}); each new block has the type its run gives its key (always data for zfs-2.1.1's engine).
 */
public final class ArcChains {

    private ArcChains() {
    }

    /**
     * @param start builds the state a chain starts from, for a generated configuration
     * @return chains of the operations above, at most 80 long, on the configurations of {@link #configs()}
     */
    public static Arbitrary<ActionChain<ArcUnderTest>> chains(Function<ArcConfig, ArcUnderTest> start) {
        return chains(configs(), start, 80);
    }

    /**
     * @param <C> what a run is built from
     * @param <S> the run's state
     * @param setups the setups to start from
     * @param start builds the state a chain starts from
     * @param maxOps the longest chain
     * @return chains of the operations above
     */
    public static <C, S extends ChainState> Arbitrary<ActionChain<S>> chains(Arbitrary<C> setups,
            Function<C, S> start, int maxOps) {
        return setups.flatMap(setup -> ActionChain.<S>startWith(() -> start.apply(setup))
                .withAction(6, new ReadAction<>())
                .withAction(2, new WriteAction<>())
                .withAction(2, new CompleteAction<>())
                .withAction(2, new ReleaseAction<>())
                .withAction(1, new SecondHoldAction<>())
                .withAction(1, new OverwriteAction<>())
                .withAction(1, new FreeAction<>())
                .withAction(1, ArcChains.<S>simple(Arbitraries.longs().between(0, 16 << 10).map(Operation.Shrink::new)))
                .withAction(2, ArcChains.<S>simple(Arbitraries.just(new Operation.Evict())))
                .withAction(1, ArcChains.<S>simple(Arbitraries.just(new Operation.Reap())))
                .withAction(2, ArcChains.<S>simple(Arbitraries.longs().between(0, 1500).map(Operation.Tick::new)))
                .withAction(1, ArcChains.<S>simple(Arbitraries.oneOf(Arbitraries.just(Long.MAX_VALUE / 8),
                        Arbitraries.longs().between(0, 128 << 10)).map(Operation.Memory::new)))
                .withMaxTransformations(maxOps));
    }

    /** @return {@link #configs(ZfsEngine)} for zfs-2.1.1's engine */
    public static Arbitrary<ArcConfig> configs() {
        return configs(ZfsEngine.V2_1_1);
    }

    /**
     * @param engine the engine whose quirk fixes the configurations take
     * @return small caches (4–16 KiB, blocks up to 2 KiB) with every sublist count from 1 to 4, both evictor
     *     schedules, every subset of the engine's quirk fixes, batch limits 1, 2 and 10, the {@code arc_p} dampener
     *     on or off, overflow shifts 8 (the default) and 2, scatter ABDs on (the default: blocks of 1536 bytes or
     *     more are scatter data, smaller ones linear) or off, three {@code arc_sys_free} values and any seed
     */
    public static Arbitrary<ArcConfig> configs(ZfsEngine engine) {
        Arbitrary<Long> cMin = Arbitraries.of(4096L, 6144L, 8192L);
        Arbitrary<Long> extra = Arbitraries.of(0L, 4096L, 8192L);
        Arbitrary<Integer> sublists = Arbitraries.integers().between(1, 4);
        Arbitrary<Boolean> auto = Arbitraries.of(true, false);
        Arbitrary<Set<QuirkFix>> fixes = Arbitraries.subsetOf(QuirkFix.of(engine));
        Arbitrary<Tunables> tunables = Combinators.combine(Arbitraries.of(1, 2, 10), Arbitraries.of(true, false),
                Arbitraries.of(8, 2), Arbitraries.of(true, false)).as((batch, dampenerOff, overflowShift, scatter) ->
                        Tunables.defaults().withEvictBatchLimit(batch).withPDampenerDisable(dampenerOff)
                                .withOverflowShift(overflowShift).withAbdScatterEnabled(scatter));
        Arbitrary<Long> sysFree = Arbitraries.of(0L, 16384L, 65536L);
        Arbitrary<Long> seed = Arbitraries.longs();
        return Combinators.combine(cMin, extra, sublists, auto, fixes, tunables, sysFree, seed)
                .as((min, more, n, a, f, t, free, sd) -> ArcConfig.small(min, min + more, 2048)
                        .withSublists(n).withEvictorRunsAfterEachOperation(a)
                        .withFixes(f.isEmpty() ? EnumSet.noneOf(QuirkFix.class) : EnumSet.copyOf(f))
                        .withTunables(t)
                        .withSysFree(free).withSeed(sd));
    }

    private static <S extends ChainState> Action.Independent<S> simple(Arbitrary<? extends Operation> ops) {
        return () -> ops.map(ArcChains::applying);
    }

    static <S extends ChainState> Transformer<S> applying(Operation op) {
        return Transformer.mutate(op.toTraceLine(), s -> s.apply(op));
    }

    /** A block that may be read: its key, size and type. */
    record Block(long key, long size, BufType type) {
    }

    /**
     * A read of one of the read keys, or of a key that was written (with its cached size, which an overwrite took
     * from the block it rewrote), with a random kind and hold.
     */
    static final class ReadAction<S extends ChainState> implements Action.Dependent<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            List<Block> candidates = new ArrayList<>();
            for (long k = 0; k < ChainState.READ_KEYS; k++) {
                candidates.add(new Block(k, ChainState.sizeOf(k), s.typeOf(k)));
            }
            s.headers().stream().filter(h -> h.key() >= ChainState.FIRST_WRITE_KEY
                    && h.state() != org.arcref.zfs.ArcState.ANON).forEach(h -> candidates.add(new Block(h.key(),
                            h.size(), h.type())));
            Arbitrary<ReadKind> kinds = Arbitraries.frequencyOf(
                    Tuple.of(7, Arbitraries.just(ReadKind.DEMAND)),
                    Tuple.of(2, Arbitraries.just(ReadKind.PREFETCH)),
                    Tuple.of(1, Arbitraries.just(ReadKind.PRESCIENT_PREFETCH)));
            return Combinators.combine(Arbitraries.of(candidates), kinds, Arbitraries.integers().between(0, 4))
                    .as((b, kind, h) -> ArcChains.<S>applying(new Operation.Read(b.key(), b.size(), kind,
                            kind == ReadKind.DEMAND && h == 0, b.type())));
        }
    }

    /** A write of a new block. */
    static final class WriteAction<S extends ChainState> implements Action.Dependent<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            long key = s.freshWriteKey();
            return Arbitraries.just(ArcChains.<S>applying(new Operation.Write(key, ChainState.sizeOf(key), s.typeOf(key))));
        }
    }

    /** An action on a held cached block, possible only while one is held. */
    interface OnHeldBlock<S extends ChainState> extends Action.Dependent<S> {
        @Override
        default boolean precondition(S s) {
            return !s.heldCached().isEmpty();
        }
    }

    /**
     * A demand read keeping its hold of a block already held: a second buffer, a private copy. Reads alone make
     * these rare, and an overwrite needs them for {@code arc_release}'s branch where other buffers remain.
     */
    static final class SecondHoldAction<S extends ChainState> implements OnHeldBlock<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            List<HeaderSnapshot> held = s.headers().stream()
                    .filter(h -> h.state() != org.arcref.zfs.ArcState.ANON && h.refcount() > 0).toList();
            return Arbitraries.of(held).map(h -> ArcChains.<S>applying(new Operation.Read(h.key(), h.size(), ReadKind.DEMAND,
                    true, h.type())));
        }
    }

    /** Completion of a pending write, keeping the writer's hold one time in four. */
    static final class CompleteAction<S extends ChainState> implements Action.Dependent<S> {
        @Override
        public boolean precondition(S s) {
            return !s.pendingWrites().isEmpty();
        }

        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            return Combinators.combine(Arbitraries.of(s.pendingWrites()), Arbitraries.integers().between(0, 3))
                    .as((k, h) -> ArcChains.<S>applying(new Operation.Complete(k, h == 0)));
        }
    }

    /** Release of one hold on a held cached block. */
    static final class ReleaseAction<S extends ChainState> implements OnHeldBlock<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            return Arbitraries.of(s.heldCached()).map(k -> ArcChains.<S>applying(new Operation.Release(k)));
        }
    }

    /**
     * An overwrite of a held cached block ({@code arc_release}) under a new write key; a block with several holds
     * three times in four when there is one, as releases and overwrites soon take second holds away.
     */
    static final class OverwriteAction<S extends ChainState> implements OnHeldBlock<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            long newKey = s.freshWriteKey();
            List<Long> several = s.keys(h -> h.state() != org.arcref.zfs.ArcState.ANON && h.refcount() > 1);
            Arbitrary<Long> keys = several.isEmpty() ? Arbitraries.of(s.heldCached())
                    : Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(several)),
                            Tuple.of(1, Arbitraries.of(s.heldCached())));
            return keys.map(k -> ArcChains.<S>applying(new Operation.Overwrite(k, newKey)));
        }
    }

    /** A free of any known key: cached, ghost, pending or absent. */
    static final class FreeAction<S extends ChainState> implements Action.Dependent<S> {
        @Override
        public Arbitrary<Transformer<S>> transformer(S s) {
            List<Long> keys = new ArrayList<>(s.keys(h -> true));
            keys.add((long) ChainState.READ_KEYS - 1);
            return Arbitraries.of(keys).map(k -> ArcChains.<S>applying(new Operation.Free(k)));
        }
    }
}
