package org.arcref.zfs;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The sequential specification of the OpenZFS zfs-2.1.1 Adaptive Replacement Cache, for data
 * buffers of one pool: one thread, no locks, exact arithmetic.
 *
 * <h2>Theory</h2>
 * The ARC of Megiddo and Modha keeps a recency list (MRU) and a frequency list (MFU) of cached
 * blocks and, for each, a ghost list of blocks recently evicted from it. A hit in a ghost list says
 * that list was too small: the target {@code arc_p} for MRU moves toward it ({@code arc_adapt}).
 * ZFS differs from the paper in ways this spec keeps:
 * <ul>
 *   <li>sizes are bytes, not pages, and buffers vary in size; the target size {@code arc_c} itself
 *       floats between {@code arc_c_min} and {@code arc_c_max}: it grows on allocation near the
 *       target ({@code arc_adapt}) and shrinks under memory pressure
 *       ({@code arc_reduce_target_size});</li>
 *   <li>a block moves from MRU to MFU only when accessed again more than {@code ARC_MINTIME}
 *       ticks after its last recorded access, so that bursts count once;</li>
 *   <li>buffers being read or written live in the anonymous state ({@code arc_anon}) and count
 *       as MRU for {@code arc_p}; held buffers (a reference count above zero) are off the
 *       eviction lists and cannot be evicted; prefetched buffers are protected for a minimum
 *       lifetime;</li>
 *   <li>eviction is not done by the allocating thread but by the {@code arc_evict} zthr, woken when
 *       the size overflows the target; an allocation blocks only when the overflow is severe, as
 *       an eviction waiter that the evictor releases once enough bytes were evicted
 *       ({@code arc_wait_for_eviction});</li>
 *   <li>each state's list is a multilist: sublists chosen by block hash, scanned from a random
 *       sublist, at most {@code zfs_arc_evict_batch_limit} headers per sublist visit, from the
 *       oldest (tail) toward the newest (head) behind a marker.</li>
 * </ul>
 *
 * <h2>How the threads of ZFS map onto one thread</h2>
 * Every public method is one operation, atomic with respect to the others. Where ZFS wakes the
 * evict zthr ({@code zthr_wakeup}), the spec sets {@code arc_evict_needed}; the zthr's loop (check
 * {@code arc_evict_needed}, run {@code arc_evict_cb}, repeat) then runs after the operation when
 * {@link ArcConfig#evictorRunsAfterEachOperation()} is set, or one iteration per
 * {@link #evictorStep()} otherwise. Where ZFS would block an allocating thread as a waiter, the spec
 * runs evictor iterations inline until the waiter is released; meanwhile, if the allocating header is
 * hashed, its hash lock ({@link BufHash#hashLockOf}, one of {@code BUF_LOCKS}) is held, so eviction counts a
 * {@code mutex_miss} on every header that shares that lock, as ZFS's {@code mutex_tryenter} would. The
 * reap zthr runs one iteration per {@link #reapStep()} and at no other time: ZFS's wakeup of it from
 * {@code arc_adapt} and its 1 s timer are left to the caller, and its check and callback read the
 * memory model once (ZFS reads free memory again after reaping caches and a 1 s delay). The clock is
 * logical: {@link #tick(long)} advances it; memory pressure comes from the injected
 * {@link MemoryModel}.
 *
 * <h2>Scope</h2>
 * Data buffers only (no metadata, so {@code arc_evict_meta} and the dnode limit never act), no
 * L2ARC, no compression, header memory not counted in {@code arc_size}. Each hold is a buffer
 * ({@code arc_buf_t}). A header's data ({@code b_pabd}) is shared with a buffer only if it is a linear
 * ABD and no other buffer exists; every other buffer is a private copy, allocated through
 * {@code arc_get_data_buf} (so it adapts and may wait for eviction) and freed with the buffer. With
 * {@link Tunables#abdScatterEnabled()} (the Linux default) blocks of
 * {@link Tunables#abdScatterMinSize()} bytes or more have scatter data, so every buffer on them is a
 * copy and a held block costs its size twice; a written block gets separate header data in
 * {@code arc_write_ready} whatever its size. Reads complete at once: the
 * operation covers {@code arc_read} and {@code arc_read_done}. Arithmetic mirrors the C types:
 * {@code arc_c}, {@code arc_p} and sizes are u64 compared unsigned; eviction targets are s64 and a
 * non-positive target means "skip".
 *
 * <p>Every rejected operation throws {@link IllegalArgumentException} or
 * {@link IllegalStateException} naming the argument, the rule and the value, and leaves the state
 * unchanged. Not thread-safe.
 */
public final class ZfsArc extends SequentialArc {

    /*
     * Implementation overview. What zfs-2.2.0 kept of 2.1.1's arc.c (hash table, lists and sizes, references and
     * state changes, buffers, eviction waiters, arc_evict_state down to arc_evict_hdr) is SequentialArc's, shared
     * with Zfs22Arc; this class adds what is 2.1.1's own: arc_p, arc_read's paths and arc_access, arc_adapt and the
     * arc_p growth of arc_get_data_impl, arc_write_ready, arc_evict, the overflow levels, arc_reduce_target_size and
     * the reaper's amount. It keeps data buffers only (the data lists of SequentialArc). Each method names the ZFS
     * function it models. The policy arithmetic (arc_adapt's moves, the overflow levels, the eviction targets,
     * arc_reduce_target_size, the reaper's to_free, the arc_p growth predicate, arc_access's transition, every
     * QuirkFix switch) is ArcArithmetic's, shared with the concurrent ARC; this class holds the state and applies it.
     *
     * The buffer state machine (hit, readDone, access, writeReady, getDataImpl here; addReference, destroyBuffer,
     * writeStart, destroy, allocateHeaderData, evictStateImpl, afterOperation and setFreeMemory in SequentialArc;
     * and Header's fields) stands again, by copy, paste and adapt, in org.arcref.arc.ConcurrentArc (and ArcHeader),
     * between the locks and atomics that make it thread-safe. It is kept as two copies so that this one stays a
     * plain transcription of arc.c with no abstraction over locking; D1 (DifferentialD1Properties, X1) compares the
     * two after every operation, so a change made to one copy only fails the default build.
     */

    private long arcP;

    /**
     * Creates an empty ARC as {@code arc_init} leaves it: {@code arc_c = arc_c_min},
     * {@code arc_p = arc_c >> 1}.
     *
     * @param config the configuration
     * @param memory the memory model consulted for {@code arc_free_memory()}
     */
    public ZfsArc(ArcConfig config, MemoryModel memory) {
        this(config, memory, NO_PROBE);
    }

    /**
     * Creates an empty ARC, as {@link #ZfsArc(ArcConfig, MemoryModel)}, that reports every header
     * {@code arc_evict_hdr} evicts or deletes to {@code evictionProbe} (ZFS's {@code arc__evict} and
     * {@code arc__delete} DTrace probes), for conformance output. The probe is called during the
     * operation, so it must not call back into the ARC.
     *
     * @param config the configuration
     * @param memory the memory model consulted for {@code arc_free_memory()}
     * @param evictionProbe told of each eviction, in order
     */
    public ZfsArc(ArcConfig config, MemoryModel memory, Consumer<Eviction> evictionProbe) {
        super(ZfsEngine.V2_1_1, config, memory, evictionProbe);
        this.arcP = arcC >>> 1;
    }

    /**
     * {@code arc_read} followed, on a miss, by {@code arc_read_done}: reads a block.
     * <ul>
     *   <li>Hit (MRU or MFU): a demand read takes a reference ({@code add_reference} clears
     *       {@code ARC_FLAG_PREFETCH}) before {@code arc_access}; a prefetch of an unreferenced
     *       header marks it prefetched and does not move it in its list.</li>
     *   <li>Ghost hit: {@code arc_adapt} with the ghost state, then {@code arc_access} moves the
     *       header to MFU (MRU if it is marked prefetched), then the data is allocated without
     *       adapting again.</li>
     *   <li>Miss: a new anonymous header, allocated with adaptation, then moved to MRU by
     *       {@code arc_access} as on I/O completion.</li>
     * </ul>
     * A demand read's buffer then shares the header's data or gets a private copy
     * ({@code arc_buf_alloc_impl}).
     * A demand read without {@code hold} releases its reference at once, which puts the header at
     * the head of its list; with {@code hold} the header stays unevictable until {@link #release}.
     *
     * @param key the block identity
     * @param size the block's logical size: a multiple of 512 in [512, maxBlockSize], and the size
     *     the block is cached with if it is
     * @param kind demand or prefetch
     * @param hold whether a demand read keeps its reference
     * @return the outcome
     * @throws IllegalArgumentException for a bad size, a prefetch with {@code hold}, a size that
     *     differs from the cached one, or a key with a pending write
     */
    public Outcome read(long key, long size, ReadKind kind, boolean hold) {
        ArcArguments.requireBlockSize(size, config);
        ArcArguments.requireHoldAllowed(kind, hold);
        ArcArguments.requireNotPending("key", key, pendingWrites.containsKey(key));
        Header h = hashTable.get(key);
        if (h != null) {
            ArcArguments.requireCachedSize(key, h.size, size);
        }
        Outcome outcome;
        if (h != null && !h.state.isGhost()) {
            outcome = hit(h, kind);
        } else {
            if (h == null) {
                h = new Header(key, size, ArcArithmetic.sublistOf(key, config.sublists()));
                hashTable.put(key, h);
                allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT));
                outcome = Outcome.MISS;
            } else {
                outcome = h.state == ArcState.MRU_GHOST ? Outcome.GHOST_HIT_MRU : Outcome.GHOST_HIT_MFU;
                adapt(h.size, h.state);
                access(h);
                allocateHeaderData(h, EnumSet.noneOf(HdrAllocFlag.class));
            }
            readDone(h, kind);
        }
        if (kind == ReadKind.DEMAND && !hold) {
            destroyBuffer(h);
        }
        return afterOperation(outcome);
    }

    /**
     * {@link #read(long, long, ReadKind, boolean)} of a data block; zfs-2.1.1's engine models data buffers only.
     *
     * @throws IllegalArgumentException also if {@code type} is metadata
     */
    @Override
    public Outcome read(long key, long size, ReadKind kind, boolean hold, BufType type) {
        ArcArguments.requireData(type);
        return read(key, size, kind, hold);
    }

    /**
     * A write of a new block: {@code arc_alloc_buf} makes an anonymous header without data and one
     * buffer, held by the writer, whose data comes from {@code arc_get_data_buf} with adaptation. ZFS
     * writes are copy-on-write, so the key must be new: not cached, not a ghost, not pending.
     *
     * @param key the identity the block will have once written
     * @param size the logical size: a multiple of 512 in [512, maxBlockSize]
     * @return {@link Outcome#WRITTEN}
     * @throws IllegalArgumentException for a bad size or a key that is not new
     */
    public Outcome write(long key, long size) {
        return write(key, size, BufType.DATA);
    }

    /** @return {@code arc_p} */
    public long mruTarget() {
        return arcP;
    }

    /** @return the whole state, immutable; costs time linear in the number of headers */
    public ArcSnapshot snapshot() {
        List<StateSnapshot> states = new ArrayList<>();
        for (ArcState s : ArcState.values()) {
            states.add(new StateSnapshot(size(s, BufType.DATA), evictableSize(s, BufType.DATA)));
        }
        return new ArcSnapshot(now, arcC, arcP, config.cMin(), config.cMax(), arcSize, noGrow, warm, growTime,
                evictNeeded, evictCount, needFree, waiterCounts(), states, headerSnapshots(), new ArcStats(stats));
    }

    // ---- read paths (arc_read) ----

    private Outcome hit(Header h, ReadKind kind) {
        Outcome outcome = h.state == ArcState.MRU ? Outcome.HIT_MRU : Outcome.HIT_MFU;
        if (kind == ReadKind.DEMAND) {
            if (h.prescientPrefetch) {
                bump(ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH);
                h.prescientPrefetch = false;
            }
            allocateBuffer(h);
        } else if (h.refcount == 0) {
            h.prefetch = true;
        }
        access(h);
        if (kind == ReadKind.PRESCIENT_PREFETCH) {
            h.prescientPrefetch = true;
        }
        bump(ArcStat.HITS);
        bump(h.prefetch ? ArcStat.PREFETCH_DATA_HITS : ArcStat.DEMAND_DATA_HITS);
        return outcome;
    }

    /**
     * The end of the miss and ghost-hit paths: the flags {@code arc_read} sets before the I/O, the
     * miss statistics, then {@code arc_read_done}: {@code arc_access} for a header still anonymous
     * and, for a demand read, its buffer.
     */
    private void readDone(Header h, ReadKind kind) {
        if (kind.isPrefetch() && h.refcount == 0) {
            h.prefetch = true;
        }
        if (kind == ReadKind.PRESCIENT_PREFETCH) {
            h.prescientPrefetch = true;
        }
        bump(ArcStat.MISSES);
        bump(h.prefetch ? ArcStat.PREFETCH_DATA_MISSES : ArcStat.DEMAND_DATA_MISSES);
        if (h.state == ArcState.ANON) {
            access(h);
        }
        if (kind == ReadKind.DEMAND) {
            allocateBuffer(h);
        }
    }

    /** {@code arc_access}: applies the transition {@link ArcArithmetic#access} decides (fact sheet d.17). */
    private void access(Header h) {
        ArcArithmetic.Access a = ArcArithmetic.access(config, h.state, h.prefetch || h.prescientPrefetch,
                h.refcount > 0, h.lastAccess, now);
        if (a.clearsPrefetch()) {
            h.prefetch = false;
            h.prescientPrefetch = false;
        }
        if (a.touches()) {
            h.lastAccess = now;
        }
        if (a.to() != h.state) {
            changeState(h, a.to());
        }
        if (a.hit() != null) {
            bump(a.hit());
        }
    }

    // ---- what 2.1.1 does its own way ----

    @Override
    void requireType(BufType type) {
        ArcArguments.requireData(type);
    }

    /** {@code add_reference} clears {@code ARC_FLAG_PREFETCH} on the 0 → 1 transition (2.1.1). */
    @Override
    void firstReference(Header h) {
        h.prefetch = false;
    }

    /** A buffer's private copy adapts ({@code arc_get_data_buf} with {@code ARC_HDR_DO_ADAPT}). */
    @Override
    Set<HdrAllocFlag> copyFlags() {
        return EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT);
    }

    /**
     * {@code arc_write_ready} for an unencrypted, uncompressed block (arc.c:6885-6915): where
     * {@link ArcArithmetic#writeReadyCopies} says so (in 2.1.1 whenever {@code zfs_abd_scatter_enabled}) the header
     * gets data of its own, allocated with {@code ARC_HDR_DO_ADAPT | ARC_HDR_USE_RESERVE}, and the writer's buffer
     * stays a copy; otherwise {@code arc_can_share} holds (the writer's buffer is the only one) and
     * {@code arc_share_buf} makes the buffer's data the header's (C2960-2988).
     */
    @Override
    void writeReady(Header h) {
        if (ArcArithmetic.writeReadyCopies(config, h.size)) {
            allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT, HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } else {
            shareWriterBuffer(h);
        }
    }

    /** {@code arc_write_done}: {@code arc_access} moves the hashed header from anon to MRU. */
    @Override
    void writeDone(Header h) {
        access(h);
    }

    /**
     * {@code arc_get_data_impl} (arc.c:5277), for a header's data or a buffer's private copy: adapt
     * ({@code ARC_HDR_DO_ADAPT}), wait for eviction ({@code ARC_HDR_USE_RESERVE}), account the new
     * data, and grow {@code arc_p} for anonymous data while the size is certainly below the target (the
     * upper-bound check of commit c1b5801bb5).
     */
    @Override
    void getDataImpl(Header h, Set<HdrAllocFlag> flags) {
        ArcState state = h.state;
        if (flags.contains(HdrAllocFlag.ARC_HDR_DO_ADAPT)) {
            adapt(h.size, state);
        }
        waitAndCount(h, flags);
        if (!state.isGhost() && Long.compareUnsigned(arcSize, arcC) < 0 && h.state == ArcState.ANON
                && ArcArithmetic.anonDataGrowsMruTarget(config, size(ArcState.ANON, BufType.DATA),
                        size(ArcState.MRU, BufType.DATA), arcP, arcC)) {
            arcP = ArcArithmetic.grownMruTarget(arcP, arcC, h.size);
        }
    }

    /**
     * {@code arc_adapt(int bytes, arc_state_t *state)} (fact sheet d.1): a ghost hit moves
     * {@code arc_p}; then {@code arc_c} grows by {@code bytes}, and with it {@code arc_p} for
     * anonymous data, if memory allows and the size is near the target ({@link ArcArithmetic}).
     */
    private void adapt(long size, ArcState state) {
        int bytes = (int) size;
        if (state.isGhost()) {
            arcP = ArcArithmetic.adaptMruTarget(config, state, bytes, arcC, arcP,
                    size(ArcState.MRU_GHOST, BufType.DATA), size(ArcState.MFU_GHOST, BufType.DATA));
        }
        if (!ArcArithmetic.adaptMayGrow(config, availableMemory(), noGrow, arcC)
                || !ArcArithmetic.adaptWithinGrowthWindow(config, arcC, arcSize)) {
            return;
        }
        boolean clamped = ArcArithmetic.adaptGrowthClamped(config, arcC, bytes);
        arcC = ArcArithmetic.adaptGrownTarget(config, arcC, bytes);
        if (!clamped && state == ArcState.ANON && ArcArithmetic.pGrowthAllowed(config, arcP, arcC)) {
            arcP += bytes;
        }
        arcP = ArcArithmetic.unsignedMin(arcP, arcC);
    }

    /** {@code arc_reduce_target_size} (fact sheet d.19). */
    @Override
    void reduceTargetSizeImpl(long toFree) {
        long c = ArcArithmetic.unsignedMin(arcC, arcSize);
        if (ArcArithmetic.reduceLowersTarget(config, c, toFree)) {
            arcC = c - toFree;
            arcP = ArcArithmetic.reducedMruTarget(config, arcP, arcC);
        } else {
            arcC = config.cMin();
            arcP = ArcArithmetic.flooredMruTarget(config, arcP);
        }
        if (Long.compareUnsigned(arcSize, arcC) > 0) {
            evictNeeded = true;
        }
    }

    @Override
    long reapToFree(long free) {
        return ArcArithmetic.reapToFree(config, arcC, free);
    }

    @Override
    ArcArithmetic.Overflow overflowLevel(boolean useReserve) {
        return ArcArithmetic.overflowLevel(config, arcC, arcSize, useReserve);
    }

    /** {@code arc_evict}: one pass over MRU, MFU, MRU ghost and MFU ghost (fact sheet d.8). */
    @Override
    long evict() {
        long total = 0;
        long target = ArcArithmetic.evictTargetMru(arcSize, arcC, arcP, size(ArcState.ANON, BufType.DATA),
                size(ArcState.MRU, BufType.DATA));
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MRU, BufType.DATA, target);
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MFU, BufType.DATA, ArcArithmetic.evictTargetMfu(arcSize, arcC));
        total += evictImpl(ArcState.MRU_GHOST, BufType.DATA, ArcArithmetic.evictTargetMruGhost(size(ArcState.MRU, BufType.DATA),
                size(ArcState.MRU_GHOST, BufType.DATA), arcC));
        total += evictImpl(ArcState.MFU_GHOST, BufType.DATA, ArcArithmetic.evictTargetMfuGhost(
                size(ArcState.MRU_GHOST, BufType.DATA), size(ArcState.MFU_GHOST, BufType.DATA), arcC));
        return total;
    }
}
