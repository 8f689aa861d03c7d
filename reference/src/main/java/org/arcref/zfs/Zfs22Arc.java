package org.arcref.zfs;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The sequential specification of the OpenZFS zfs-2.2.0 Adaptive Replacement Cache, for data and metadata buffers
 * of one pool: one thread, no locks, exact arithmetic. It reads beside zfs-2.2.0's module/zfs/arc.c as
 * {@link ZfsArc} reads beside zfs-2.1.1's; line numbers ({@code C4222}) are zfs-2.2.0's.
 *
 * <h2>What zfs-2.2.0 changed (OpenZFS #14359)</h2>
 * zfs-2.1 balanced the cache by one byte target, {@code arc_p}, for MRU, moved by {@code arc_adapt} on every ghost
 * hit. zfs-2.2.0 splits the four live classes (MRU and MFU, each data and metadata) by three 32-bit fixed-point
 * fractions: {@code arc_meta}, metadata's share of the whole; {@code arc_pd}, MRU's share of data; {@code arc_pm},
 * MRU's share of metadata. A ghost hit only counts its bytes ({@code arcs_hits[type]} of the ghost state); each
 * eviction pass ({@code arc_evict}) first moves the fractions by the hits since the previous pass, relative to the
 * ghost lists' targets of that pass ({@link Arc22Arithmetic#evictAdj}), then evicts toward the targets the fractions
 * give, in a fixed priority: MRU metadata, MFU metadata, MRU data, and MFU data for whatever excess remains; then
 * trims each ghost list to half the other three live classes. {@code arc_adapt} only grows {@code arc_c}, by at
 * least {@code SPA_OLD_MAXBLOCKSIZE}. Reads call {@code arc_access} when they start, not when they complete, and a
 * header being read holds a reference of its own ({@code ARC_FLAG_IO_IN_PROGRESS}). A demand hit no longer clears
 * a header's prefetch flag by taking a reference: {@code arc_access} clears it, and an MRU header whose last access
 * was a prefetch stays in MRU on its next hit.
 *
 * <h2>How the threads of ZFS map onto one thread</h2>
 * As in {@link ZfsArc}: every public method is one operation; the evict zthr runs after the operation when
 * {@link ArcConfig#evictorRunsAfterEachOperation()} is set, or one iteration per {@link #evictorStep()}; an
 * allocation that must wait runs evictor iterations inline, holding its header's hash lock; the reap zthr runs one
 * iteration per {@link #reapStep()}. zfs-2.2.0's evict zthr also wakes by a 1 s timer, which matters only for
 * uncached buffers (not modelled): with none, its check is {@code arc_evict_needed} alone.
 *
 * <h2>Scope</h2>
 * Data and metadata buffers of one pool, level 0 (no {@code ARC_FLAG_INDIRECT}); no L2ARC, no compression or
 * encryption, no dnodes (so {@code arc_evict}'s prune never acts), no uncached reads ({@code ARC_FLAG_UNCACHED}),
 * header memory not counted in {@code arc_size}. Reads complete at once. A block's type is fixed while it has a
 * header: an operation naming the other type is rejected. Every rejected operation throws
 * {@link IllegalArgumentException} or {@link IllegalStateException} naming the argument, the rule and the value, and
 * leaves the state unchanged. Not thread-safe.
 */
public final class Zfs22Arc extends SequentialArc {

    /*
     * Implementation overview. What zfs-2.2.0 kept of 2.1.1's arc.c (hash table, lists and sizes per buffer type,
     * references and state changes, buffers, eviction waiters, arc_evict_state down to arc_evict_hdr) is
     * SequentialArc's, shared with ZfsArc; this class adds what is 2.2.0's own: the fractions arc_meta, arc_pd and
     * arc_pm, the ghost-hit counters arcs_hits[type] and arc_evict's function-static snapshots of them (og*) and
     * ghost targets (gs*), arc_read's paths and arc_access, arc_adapt, arc_write_ready, arc_evict, the overflow
     * levels, arc_reduce_target_size and the reaper's amount. Each method names the arc.c function it models; the
     * arithmetic is Arc22Arithmetic's (and ArcArithmetic's where zfs-2.2.0 kept 2.1.1's rule).
     */

    /** ZFS's {@code SPA_OLD_MAXBLOCKSIZE}, 128 KiB: the {@code oldMaxBlockSize} of a system. */
    public static final long ZFS_OLD_MAX_BLOCK_SIZE = 128 * 1024;
    /** ZFS's default {@code zfs_arc_meta_balance}, 500: the {@code metaBalance} of a system. */
    public static final int ZFS_META_BALANCE = 500;

    private final long oldMaxBlockSize;
    private final int metaBalance;
    /** {@code arcs_hits[type]} of MRU ghost (data, metadata) and MFU ghost (data, metadata). */
    private final long[] ghostHits = new long[4];
    /** {@code arc_evict}'s statics {@code ogrd, ogrm, ogfd, ogfm}, in {@link #ghostHits}' order. */
    private final long[] ghostHitsSeen = new long[4];
    /** {@code arc_evict}'s statics {@code gsrd, gsrm, gsfd, gsfm}, in {@link #ghostHits}' order. */
    private final long[] ghostTargets = new long[4];
    private long arcMeta = Arc22Arithmetic.ONE / 4;
    private long arcPd = Arc22Arithmetic.ONE / 2;
    private long arcPm = Arc22Arithmetic.ONE / 2;

    /**
     * Creates an empty ARC as {@code arc_init} leaves it (C7551–7558): {@code arc_c = arc_c_min}, {@code arc_meta}
     * 1/4, {@code arc_pd} and {@code arc_pm} 1/2.
     *
     * @param config the configuration; its fixes must be the zfs-2.2.0 engine's
     * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE} (128 KiB in ZFS): {@code arc_adapt}'s smallest growth step;
     *     a power of two in [512, 16 MiB]
     * @param metaBalance {@code zfs_arc_meta_balance} (500 in ZFS), at least 1 (0 divides by zero in
     *     {@code arc_evict_adj})
     * @param memory the memory model consulted for {@code arc_free_memory()}
     * @param evictionProbe told of each header {@code arc_evict_hdr} evicts or deletes, during the operation
     */
    public Zfs22Arc(ArcConfig config, long oldMaxBlockSize, int metaBalance, MemoryModel memory,
            Consumer<Eviction> evictionProbe) {
        super(ZfsEngine.V2_2_0, config, memory, evictionProbe);
        Validate.powerOfTwo("oldMaxBlockSize", oldMaxBlockSize);
        Validate.range("oldMaxBlockSize", oldMaxBlockSize, ArcConfig.MIN_BLOCK_SIZE, ArcConfig.ZFS_MAX_BLOCK_SIZE);
        Validate.range("metaBalance", metaBalance, 1, Integer.MAX_VALUE);
        if (config.growthWindow() != 2 * config.maxBlockSize()) {
            throw new IllegalArgumentException("growthWindow must be 2 * maxBlockSize = " + 2 * config.maxBlockSize()
                    + " for zfs-2.2.0's engine (its arc_adapt grows within 2 * SPA_MAXBLOCKSIZE of arc_c), was "
                    + config.growthWindow());
        }
        this.oldMaxBlockSize = oldMaxBlockSize;
        this.metaBalance = metaBalance;
    }

    /**
     * An ARC that reports no evictions, as {@link #Zfs22Arc(ArcConfig, long, int, MemoryModel, Consumer)}.
     *
     * @param config the configuration
     * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE}
     * @param metaBalance {@code zfs_arc_meta_balance}
     * @param memory the memory model
     */
    public Zfs22Arc(ArcConfig config, long oldMaxBlockSize, int metaBalance, MemoryModel memory) {
        this(config, oldMaxBlockSize, metaBalance, memory, NO_PROBE);
    }

    /**
     * {@code arc_read} (C5452) and, on a miss, {@code arc_read_done} (C5224).
     * <ul>
     *   <li>Hit (MRU or MFU): {@code arc_access} (C5614), then a demand read's buffer
     *       ({@code arc_buf_alloc_impl}, which takes the reference).</li>
     *   <li>Miss or ghost hit: a new anonymous header if there is none; {@code add_reference} for the I/O
     *       (C5762; the header is {@link Header#ioInProgress} from here: the reference is not a buffer, and
     *       {@code arc_access} only asks for the flag in MRU, which the header is not in yet), {@code arc_access} (a
     *       ghost hit counts its bytes and moves the header to MRU or MFU, a new header goes to MRU), then the
     *       header's data through
     *       {@code arc_get_data_impl} (adapting and maybe waiting, with the header's hash lock held); the read
     *       completes: a demand read's buffer, then the I/O's reference is dropped (C5392).</li>
     * </ul>
     * A demand read without {@code hold} then destroys its buffer.
     *
     * @param key the block identity
     * @param size the logical size: a multiple of 512 in [512, maxBlockSize], the cached size if cached
     * @param kind demand or prefetch
     * @param hold whether a demand read keeps its buffer
     * @param type data or metadata: the type of the key's header if it has one
     * @return the outcome
     * @throws IllegalArgumentException for a bad size, a prefetch with {@code hold}, a size or type that differs
     *     from the cached header's, or a key with a pending write
     */
    @Override
    public Outcome read(long key, long size, ReadKind kind, boolean hold, BufType type) {
        ArcArguments.requireBlockSize(size, config);
        ArcArguments.requireHoldAllowed(kind, hold);
        Validate.notNull("type", type);
        ArcArguments.requireNotPending("key", key, pendingWrites.containsKey(key));
        Header h = hashTable.get(key);
        if (h != null) {
            ArcArguments.requireCachedSize(key, h.size, size);
            ArcArguments.requireSameType(key, h.type, type);
        }
        boolean prefetch = kind.isPrefetch();
        Outcome outcome;
        if (h != null && !h.state.isGhost()) {
            outcome = h.state == ArcState.MRU ? Outcome.HIT_MRU : Outcome.HIT_MFU;
            access(h, kind, true);
            if (kind == ReadKind.DEMAND) {
                allocateBuffer(h);
            }
            bump(ArcStat.HITS);
            bump(ArcStat.of(prefetch, h.type, true));
        } else {
            if (h == null) {
                h = new Header(key, size, ArcArithmetic.sublistOf(key, config.sublists()), type);
                hashTable.put(key, h);
                outcome = Outcome.MISS;
            } else {
                outcome = h.state == ArcState.MRU_GHOST ? Outcome.GHOST_HIT_MRU : Outcome.GHOST_HIT_MFU;
            }
            h.ioInProgress = true;
            addReference(h);
            access(h, kind, false);
            allocateHeaderData(h, noFlags());
            bump(ArcStat.MISSES);
            bump(ArcStat.of(prefetch, h.type, false));
            if (kind == ReadKind.DEMAND) {
                allocateBuffer(h);
            }
            h.ioInProgress = false;
            removeReference(h);
        }
        if (kind == ReadKind.DEMAND && !hold) {
            destroyBuffer(h);
        }
        return afterOperation(outcome);
    }

    /** @return the whole state, immutable; costs time linear in the number of headers */
    public Arc22Snapshot snapshot() {
        List<StateSnapshot> states = new ArrayList<>();
        for (ArcState s : ArcState.values()) {
            for (BufType t : BufType.values()) {
                states.add(new StateSnapshot(size(s, t), evictableSize(s, t)));
            }
        }
        List<Long> hits = new ArrayList<>();
        for (long v : ghostHits) {
            hits.add(v);
        }
        return new Arc22Snapshot(now, arcC, arcMeta, arcPd, arcPm, arcSize, states, hits, noGrow, warm, growTime,
                evictNeeded, evictCount, needFree, waiterCounts(), headerSnapshots(), new ArcStats(stats));
    }

    /**
     * The state {@code arc_evict} keeps in function-static variables that decides its next pass and is not in the
     * {@link #snapshot()}: the growth of each ghost-hit counter since the last pass ({@code ngrd - ogrd}, ...) and
     * that pass's ghost targets ({@code gsrd}, ...), each in the order MRU ghost data, MRU ghost metadata, MFU ghost
     * data, MFU ghost metadata. With the snapshot it determines the fractions' next moves.
     *
     * @return the four growths, then the four targets (u64)
     */
    public List<Long> evictStatics() {
        List<Long> statics = new ArrayList<>();
        for (int i = 0; i < ghostHits.length; i++) {
            statics.add(ghostHits[i] - ghostHitsSeen[i]);
        }
        for (long t : ghostTargets) {
            statics.add(t);
        }
        return statics;
    }

    // ---- arc_access (C4982) ----

    /**
     * {@code arc_access(hdr, arc_flags, hit)}: first the prefetch flags (C4990–5018): an access of another kind
     * than the header's last flips {@code ARC_FLAG_PREFETCH} (a demand access clears it and
     * {@code ARC_FLAG_PRESCIENT_PREFETCH}, counting a demand hit on a prefetch); a prescient prefetch sets
     * {@code ARC_FLAG_PRESCIENT_PREFETCH}. Then the transition of the header's state (C5020–5128).
     */
    private void access(Header h, ReadKind kind, boolean hit) {
        boolean wasPrefetch = h.prefetch;
        boolean nowPrefetch = kind.isPrefetch();
        if (wasPrefetch != nowPrefetch) {
            if (wasPrefetch) {
                if (hit) {
                    bump(h.prescientPrefetch ? ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH
                            : ArcStat.DEMAND_HIT_PREDICTIVE_PREFETCH);
                }
                h.prefetch = false;
                h.prescientPrefetch = false;
            } else {
                h.prefetch = true;
            }
        }
        if (kind == ReadKind.PRESCIENT_PREFETCH) {
            h.prescientPrefetch = true;
        }
        switch (h.state) {
            case ANON -> {
                h.lastAccess = now;
                changeState(h, ArcState.MRU);
            }
            case MRU -> {
                bump(ArcStat.MRU_HITS);
                if (wasPrefetch) {
                    h.lastAccess = now;
                } else if (now > h.lastAccess + config.minTimeTicks()) {
                    h.lastAccess = now;
                    changeState(h, ArcState.MFU);
                }
            }
            case MRU_GHOST -> {
                bump(ArcStat.MRU_GHOST_HITS);
                h.lastAccess = now;
                ghostHits[Arc22Snapshot.ghostIndex(ArcState.MRU_GHOST, h.type)] += h.size;
                changeState(h, wasPrefetch ? ArcState.MRU : ArcState.MFU);
            }
            case MFU -> {
                bump(ArcStat.MFU_HITS);
                h.lastAccess = now;
            }
            case MFU_GHOST -> {
                bump(ArcStat.MFU_GHOST_HITS);
                h.lastAccess = now;
                ghostHits[Arc22Snapshot.ghostIndex(ArcState.MFU_GHOST, h.type)] += h.size;
                changeState(h, ArcState.MFU);
            }
        }
    }

    // ---- what 2.2.0 does its own way ----

    @Override
    void requireType(BufType type) {
        Validate.notNull("type", type);
    }

    /** A buffer's private copy: {@code arc_get_data_buf}, which adapts for every allocation in 2.2.0. */
    @Override
    Set<HdrAllocFlag> copyFlags() {
        return noFlags();
    }

    /**
     * {@code arc_write_ready} (C6316): the header shares the writer's buffer if the block's data would be linear
     * ({@code abd_size_alloc_linear}; {@code arc_can_share} holds for the lone writer's buffer), or else gets data
     * of its own ({@code ARC_HDR_USE_RESERVE}).
     */
    @Override
    void writeReady(Header h) {
        if (ArcArithmetic.linearAbd(tunables, h.size)) {
            shareWriterBuffer(h);
        } else {
            allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_USE_RESERVE));
        }
    }

    /** {@code arc_write_done} (C6486): {@code arc_access(hdr, 0, B_FALSE)} moves the header from anon to MRU. */
    @Override
    void writeDone(Header h) {
        access(h, ReadKind.DEMAND, false);
    }

    /** {@code arc_get_data_impl} (C4873): {@code arc_adapt} for every allocation, then the shared part. */
    @Override
    void getDataImpl(Header h, Set<HdrAllocFlag> flags) {
        adapt(h.size);
        waitAndCount(h, flags);
    }

    /**
     * {@code arc_adapt(bytes)} (C4704): nothing while memory is short ({@code arc_reclaim_needed()}; the reap
     * zthr's wakeup is left to the caller) or {@code arc_no_grow}; else {@link Arc22Arithmetic#adaptGrownTarget}.
     */
    private void adapt(long bytes) {
        if (availableMemory() < 0 || noGrow) {
            return;
        }
        arcC = Arc22Arithmetic.adaptGrownTarget(config, oldMaxBlockSize, arcC, arcSize, bytes);
    }

    @Override
    void reduceTargetSizeImpl(long toFree) {
        long c = arcC;
        arcC = Arc22Arithmetic.reducedTarget(config, c, arcSize, toFree);
        if (Arc22Arithmetic.reduceWakesEvictor(config, c, arcC, arcSize)) {
            evictNeeded = true;
        }
    }

    @Override
    long reapToFree(long free) {
        return Arc22Arithmetic.reapToFree(config, arcC, free);
    }

    @Override
    ArcArithmetic.Overflow overflowLevel(boolean useReserve) {
        return Arc22Arithmetic.overflowLevel(config, arcC, arcSize, useReserve);
    }

    /**
     * {@code arc_evict}: adapts the three fractions by the ghost hits since the last pass, then evicts MRU
     * metadata, MFU metadata, MRU data and MFU data toward their targets, each capped by the remaining excess,
     * then trims the four ghost lists; returns the live bytes evicted.
     */
    @Override
    long evict() {
        long mrud = size(ArcState.MRU, BufType.DATA) + size(ArcState.ANON, BufType.DATA);
        long mrum = size(ArcState.MRU, BufType.METADATA) + size(ArcState.ANON, BufType.METADATA);
        long mfud = size(ArcState.MFU, BufType.DATA);
        long mfum = size(ArcState.MFU, BufType.METADATA);
        long m = mrum + mfum;
        long t = mrud + mfud + m;

        long[] g = new long[ghostHits.length];
        for (int i = 0; i < g.length; i++) {
            g[i] = ghostHits[i] - ghostHitsSeen[i];
            ghostHitsSeen[i] = ghostHits[i];
        }
        long grd = g[0];
        long grm = g[1];
        long gfd = g[2];
        long gfm = g[3];
        long gsrd = ghostTargets[0];
        long gsrm = ghostTargets[1];
        long gsfd = ghostTargets[2];
        long gsfm = ghostTargets[3];
        boolean adjFixed = config.applies(QuirkFix.EVICT_ADJ_OVERFLOW_17255);
        arcMeta = Arc22Arithmetic.evictAdj(arcMeta, gsrd + gsrm + gsfd + gsfm, grm + gfm, grd + gfd, metaBalance,
                adjFixed);
        arcPd = Arc22Arithmetic.evictAdj(arcPd, gsrd + gsfd, grd, gfd, 100, adjFixed);
        arcPm = Arc22Arithmetic.evictAdj(arcPm, gsrm + gsfm, grm, gfm, 100, adjFixed);

        long asize = arcSize;
        long wt = t - (asize - arcC);
        long total = 0;

        long w = Arc22Arithmetic.target(wt, Arc22Arithmetic.mruMetaShare16(arcMeta, arcPm));
        long bytes = evictImpl(ArcState.MRU, BufType.METADATA, Arc22Arithmetic.stepBytes(asize, arcC, mrum, w));
        total += bytes;
        mrum -= bytes;
        asize -= bytes;

        w = Arc22Arithmetic.target(wt, arcMeta >>> 16);
        long mfuMetaHave = config.applies(QuirkFix.MFU_META_EVICTION_16546) ? m - bytes : m;
        bytes = evictImpl(ArcState.MFU, BufType.METADATA, Arc22Arithmetic.stepBytes(asize, arcC, mfuMetaHave, w));
        total += bytes;
        mfum -= bytes;
        asize -= bytes;

        wt -= m - total;
        w = Arc22Arithmetic.target(wt, arcPd >>> 16);
        bytes = evictImpl(ArcState.MRU, BufType.DATA, Arc22Arithmetic.stepBytes(asize, arcC, mrud, w));
        total += bytes;
        mrud -= bytes;
        asize -= bytes;

        bytes = evictImpl(ArcState.MFU, BufType.DATA, asize - arcC);
        mfud -= bytes;
        total += bytes;

        ghostTargets[0] = Arc22Arithmetic.ghostTarget(mrum, mfud, mfum);
        evictImpl(ArcState.MRU_GHOST, BufType.DATA, size(ArcState.MRU_GHOST, BufType.DATA) - ghostTargets[0]);
        ghostTargets[1] = Arc22Arithmetic.ghostTarget(mrud, mfud, mfum);
        evictImpl(ArcState.MRU_GHOST, BufType.METADATA, size(ArcState.MRU_GHOST, BufType.METADATA)
                - ghostTargets[1]);
        ghostTargets[2] = Arc22Arithmetic.ghostTarget(mrud, mrum, mfum);
        evictImpl(ArcState.MFU_GHOST, BufType.DATA, size(ArcState.MFU_GHOST, BufType.DATA) - ghostTargets[2]);
        ghostTargets[3] = Arc22Arithmetic.ghostTarget(mrud, mrum, mfud);
        evictImpl(ArcState.MFU_GHOST, BufType.METADATA, size(ArcState.MFU_GHOST, BufType.METADATA)
                - ghostTargets[3]);
        return total;
    }
}
