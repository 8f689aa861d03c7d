package org.arcref.zfs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.arcref.random.SplitMix64;

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
public final class Zfs22Arc implements ArcOperations {

    /*
     * Implementation overview. The state is zfs-2.2.0's: per state and type a size, an evictable size and a
     * multilist (arcs_size[type], arcs_esize[type], arcs_list[type]); per ghost state and type the hit bytes
     * (arcs_hits[type]); the globals arc_c, arc_meta, arc_pd, arc_pm, arc_evict_count; arc_evict's function-static
     * snapshots of the hit counters (og*) and ghost targets (gs*); arc_size as an exact counter. Headers, the hash
     * table, the multilists, the argument rules and the sublist draws are the ones ZfsArc uses. Each method names
     * the arc.c function it models; the arithmetic is Arc22Arithmetic's (and ArcArithmetic's where zfs-2.2.0 kept
     * 2.1.1's rule).
     */

    /** ZFS's {@code SPA_OLD_MAXBLOCKSIZE}, 128 KiB: the {@code oldMaxBlockSize} of a system. */
    public static final long ZFS_OLD_MAX_BLOCK_SIZE = 128 * 1024;
    /** ZFS's default {@code zfs_arc_meta_balance}, 500: the {@code metaBalance} of a system. */
    public static final int ZFS_META_BALANCE = 500;

    private static final Consumer<Eviction> NO_PROBE = eviction -> { };
    private static final int TYPES = BufType.values().length;
    private static final BufType[] TYPE = BufType.values();

    private final ArcConfig config;
    private final Tunables tunables;
    private final long oldMaxBlockSize;
    private final int metaBalance;
    private final MemoryModel memory;
    private final Consumer<Eviction> evictionProbe;
    private final Map<Long, Header> hashTable = new HashMap<>();
    private final Map<Long, Header> pendingWrites = new HashMap<>();
    private final Multilist[] lists = new Multilist[ArcState.values().length * TYPES];
    private final long[] stateSize = new long[ArcState.values().length * TYPES];
    private final long[] stateEsize = new long[ArcState.values().length * TYPES];
    /** {@code arcs_hits[type]} of MRU ghost (0, 1) and MFU ghost (2, 3). */
    private final long[] ghostHits = new long[2 * TYPES];
    /** {@code arc_evict}'s statics {@code ogrd, ogrm, ogfd, ogfm}, in {@link #ghostHits}' order. */
    private final long[] ghostHitsSeen = new long[2 * TYPES];
    /** {@code arc_evict}'s statics {@code gsrd, gsrm, gsfd, gsfm}, in {@link #ghostHits}' order. */
    private final long[] ghostTargets = new long[2 * TYPES];
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final long[] stats = new long[Arc22Stat.values().length];
    private final SplitMix64 random;

    private long arcC;
    private long arcMeta = Arc22Arithmetic.ONE / 4;
    private long arcPd = Arc22Arithmetic.ONE / 2;
    private long arcPm = Arc22Arithmetic.ONE / 2;
    private long arcSize;
    private boolean noGrow;
    private boolean warm;
    private long growTime;
    private boolean evictNeeded;
    private long evictCount;
    private long needFree;
    private long now;
    private int lockedStripe = -1;

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
        this.config = Validate.notNull("config", config);
        this.memory = Validate.notNull("memory", memory);
        this.evictionProbe = Validate.notNull("evictionProbe", evictionProbe);
        ArcArguments.requireEngineFixes(ZfsEngine.V2_2_0, config.fixes());
        Validate.powerOfTwo("oldMaxBlockSize", oldMaxBlockSize);
        Validate.range("oldMaxBlockSize", oldMaxBlockSize, ArcConfig.MIN_BLOCK_SIZE, ArcConfig.ZFS_MAX_BLOCK_SIZE);
        Validate.range("metaBalance", metaBalance, 1, Integer.MAX_VALUE);
        if (config.growthWindow() != 2 * config.maxBlockSize()) {
            throw new IllegalArgumentException("growthWindow must be 2 * maxBlockSize = " + 2 * config.maxBlockSize()
                    + " for zfs-2.2.0's engine (its arc_adapt grows within 2 * SPA_MAXBLOCKSIZE of arc_c), was "
                    + config.growthWindow());
        }
        this.tunables = config.tunables();
        this.oldMaxBlockSize = oldMaxBlockSize;
        this.metaBalance = metaBalance;
        for (ArcState s : ArcState.values()) {
            if (s.hasList()) {
                for (BufType t : TYPE) {
                    lists[Arc22Snapshot.index(s, t)] = new Multilist(config.sublists());
                }
            }
        }
        this.random = new SplitMix64(config.seed());
        this.arcC = config.cMin();
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

    /** @return the configuration */
    @Override
    public ArcConfig config() {
        return config;
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
            bump(Arc22Stat.HITS);
            bump(Arc22Stat.of(prefetch, h.type, true));
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
            allocateHeaderData(h, EnumSet.noneOf(HdrAllocFlag.class));
            bump(Arc22Stat.MISSES);
            bump(Arc22Stat.of(prefetch, h.type, false));
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

    /**
     * {@code arc_alloc_buf} (C3421): a new anonymous header without data and one buffer, held by the writer,
     * whose data comes from {@code arc_get_data_buf}. ZFS writes are copy-on-write, so the key must be new.
     *
     * @param key the identity the block will have once written
     * @param size the logical size
     * @param type data or metadata
     * @return {@link Outcome#WRITTEN}
     * @throws IllegalArgumentException for a bad size or a key that is not new
     */
    @Override
    public Outcome write(long key, long size, BufType type) {
        ArcArguments.requireBlockSize(size, config);
        Validate.notNull("type", type);
        Header existing = hashTable.get(key);
        ArcArguments.requireNewKey("key", key, pendingWrites.containsKey(key),
                existing == null ? null : existing.state);
        Header h = new Header(key, size, ArcArithmetic.sublistOf(key, config.sublists()), type);
        pendingWrites.put(key, h);
        allocateBuffer(h);
        return afterOperation(Outcome.WRITTEN);
    }

    /**
     * {@code arc_write_ready} (C6316) and {@code arc_write_done} (C6486). The header shares the writer's buffer if
     * the block's data would be linear ({@code abd_size_alloc_linear}) and {@code arc_can_share} holds, or else
     * gets data of its own ({@code ARC_HDR_USE_RESERVE}); it is hashed, moved from anon to MRU by
     * {@code arc_access}, and the writer's buffer destroyed unless {@code hold}.
     *
     * @param key a key with a pending write
     * @param hold whether the writer keeps its buffer
     * @return {@link Outcome#WRITE_COMPLETED}
     * @throws IllegalArgumentException if the key has no pending write
     */
    @Override
    public Outcome completeWrite(long key, boolean hold) {
        Header h = pendingWrites.get(key);
        ArcArguments.requirePending(key, h != null);
        pendingWrites.remove(key);
        if (ArcArithmetic.linearAbd(tunables, h.size) && h.buffers() == 1 && !h.sharedData) {
            h.hasData = true;
            h.sharedData = true;
            countHeaderData(h.size);
            stats[Arc22Stat.OVERHEAD_SIZE.ordinal()] -= h.size;
        } else {
            allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_USE_RESERVE));
        }
        hashTable.put(key, h);
        access(h, ReadKind.DEMAND, false);
        if (!hold) {
            destroyBuffer(h);
        }
        return afterOperation(Outcome.WRITE_COMPLETED);
    }

    /**
     * Releases one hold on a cached block ({@code arc_buf_destroy}); the last puts the header at the head of its
     * list.
     *
     * @param key a key whose cached header is held
     * @return {@link Outcome#RELEASED}
     * @throws IllegalArgumentException if the key is not cached with a hold
     */
    @Override
    public Outcome release(long key) {
        Header h = hashTable.get(key);
        ArcArguments.requireHeld(key, h == null ? null : h.state, h == null ? 0 : h.refcount);
        destroyBuffer(h);
        return afterOperation(Outcome.RELEASED);
    }

    /**
     * {@code arc_release} of a held buffer (C6105) and the start of {@code arc_write} (C6572): as
     * {@link ZfsArc#overwrite}, whose two branches zfs-2.2.0 keeps.
     *
     * @param key a key whose cached header is held
     * @param newKey the identity the rewritten block will have
     * @return {@link Outcome#OVERWRITTEN}
     * @throws IllegalArgumentException if {@code key} is not held or {@code newKey} is not new
     */
    @Override
    public Outcome overwrite(long key, long newKey) {
        Header h = hashTable.get(key);
        ArcArguments.requireHeld(key, h == null ? null : h.state, h == null ? 0 : h.refcount);
        Header existing = hashTable.get(newKey);
        ArcArguments.requireNewKey("newKey", newKey, pendingWrites.containsKey(newKey),
                existing == null ? null : existing.state);
        int sublist = ArcArithmetic.sublistOf(newKey, config.sublists());
        Header anon;
        if (h.refcount == 1) {
            changeState(h, ArcState.ANON);
            hashTable.remove(h.key);
            h.lastAccess = 0;
            anon = h.renamed(newKey, sublist);
        } else {
            h.refcount--;
            stateSize[Arc22Snapshot.index(h.state, h.type)] -= h.size;
            anon = new Header(newKey, h.size, sublist, h.type);
            anon.refcount = 1;
            stateSize[Arc22Snapshot.index(ArcState.ANON, anon.type)] += anon.size;
        }
        if (anon.hasData) {
            if (anon.sharedData) {
                anon.hasData = false;
                anon.sharedData = false;
                countHeaderData(-anon.size);
                stats[Arc22Stat.OVERHEAD_SIZE.ordinal()] += anon.size;
            } else {
                freeData(anon);
            }
        }
        pendingWrites.put(newKey, anon);
        return afterOperation(Outcome.OVERWRITTEN);
    }

    /**
     * {@code arc_freed} (C6055): an unreferenced header is destroyed, a referenced one left alone; a pending
     * write is discarded with its buffer.
     *
     * @param key the block identity
     * @return {@link Outcome#FREED}, {@link Outcome#FREE_SKIPPED_HELD} or {@link Outcome#NOT_CACHED}
     */
    @Override
    public Outcome free(long key) {
        Header pending = pendingWrites.remove(key);
        if (pending != null) {
            destroyBuffer(pending);
            return afterOperation(Outcome.FREED);
        }
        Header h = hashTable.get(key);
        if (h == null) {
            return afterOperation(Outcome.NOT_CACHED);
        }
        if (h.refcount > 0) {
            return afterOperation(Outcome.FREE_SKIPPED_HELD);
        }
        destroy(h);
        return afterOperation(Outcome.FREED);
    }

    /**
     * {@code arc_reduce_target_size} (C4382): {@link Arc22Arithmetic#reducedTarget}, then a request for an
     * eviction pass where {@link Arc22Arithmetic#reduceWakesEvictor} says so.
     *
     * @param toFree bytes to take off the target, at least 0
     * @return {@link Outcome#TARGET_REDUCED}
     * @throws IllegalArgumentException if {@code toFree} is negative
     */
    @Override
    public Outcome reduceTargetSize(long toFree) {
        ArcArguments.requireToFree(toFree);
        reduceTargetSizeImpl(toFree);
        return afterOperation(Outcome.TARGET_REDUCED);
    }

    /**
     * One iteration of the evict zthr: {@code arc_evict_cb_check} ({@code arc_evict_needed}, with no uncached
     * buffers) and, if it says so, {@code arc_evict_cb}.
     *
     * @return {@link Outcome#EVICTOR_RAN} or {@link Outcome#IDLE}
     */
    @Override
    public Outcome evictorStep() {
        if (!evictNeeded) {
            return afterOperation(Outcome.IDLE);
        }
        evictCb();
        return afterOperation(Outcome.EVICTOR_RAN);
    }

    /**
     * One iteration of the reap zthr: {@code arc_reap_cb_check} (C4559, as 2.1.1's) and, if memory is short,
     * {@code arc_reap_cb} (C4607) with {@link Arc22Arithmetic#reapToFree}. Cache reaping and the delay are not
     * modelled; memory is read once.
     *
     * @return {@link Outcome#REAPED} or {@link Outcome#IDLE}
     */
    @Override
    public Outcome reapStep() {
        long free = availableMemory();
        if (free < 0) {
            noGrow = true;
            warm = true;
            growTime = ArcArithmetic.reapGrowTime(config, now);
            long toFree = Arc22Arithmetic.reapToFree(config, arcC, free);
            if (toFree > 0) {
                reduceTargetSizeImpl(toFree);
            }
            return afterOperation(Outcome.REAPED);
        }
        noGrow = ArcArithmetic.reapNoGrow(config, free, arcC, now, growTime, noGrow);
        return afterOperation(Outcome.IDLE);
    }

    /**
     * Advances the logical clock.
     *
     * @param ticks how far, at least 0
     * @return {@link Outcome#TICKED}
     * @throws IllegalArgumentException if {@code ticks} is negative or would overflow the clock
     */
    @Override
    public Outcome tick(long ticks) {
        ArcArguments.requireTicks(ticks, now);
        now += ticks;
        return afterOperation(Outcome.TICKED);
    }

    /**
     * Sets the free memory of an {@link AdjustableMemory} model.
     *
     * @param bytes the free memory, at least 0
     * @return {@link Outcome#MEMORY_SET}
     * @throws IllegalStateException if the memory model is not adjustable
     */
    @Override
    public Outcome setFreeMemory(long bytes) {
        if (!(memory instanceof AdjustableMemory adjustable)) {
            throw new IllegalStateException("memory model must be an AdjustableMemory to set free memory, was "
                    + memory.getClass().getName());
        }
        adjustable.set(bytes);
        return afterOperation(Outcome.MEMORY_SET);
    }

    /** @return the whole state, immutable; costs time linear in the number of headers */
    public Arc22Snapshot snapshot() {
        List<StateSnapshot> states = new ArrayList<>();
        for (ArcState s : ArcState.values()) {
            for (BufType t : TYPE) {
                int i = Arc22Snapshot.index(s, t);
                states.add(new StateSnapshot(stateSize[i], stateEsize[i]));
            }
        }
        List<HeaderSnapshot> headers = new ArrayList<>();
        new TreeMap<>(pendingWrites).values().forEach(h -> headers.add(h.snapshot()));
        Map<ArcState, TreeMap<Long, Header>> held = new HashMap<>();
        for (Header h : hashTable.values()) {
            if (!h.linked) {
                held.computeIfAbsent(h.state, s -> new TreeMap<>()).put(h.key, h);
            }
        }
        for (ArcState s : ArcState.values()) {
            if (s.hasList()) {
                for (BufType t : TYPE) {
                    lists[Arc22Snapshot.index(s, t)].collect(headers);
                }
                held.getOrDefault(s, new TreeMap<>()).values().forEach(h -> headers.add(h.snapshot()));
            }
        }
        List<Long> waiterCounts = new ArrayList<>();
        waiters.forEach(w -> waiterCounts.add(w.count));
        List<Long> statList = new ArrayList<>();
        for (long v : stats) {
            statList.add(v);
        }
        List<Long> hits = new ArrayList<>();
        for (long v : ghostHits) {
            hits.add(v);
        }
        return new Arc22Snapshot(now, arcC, arcMeta, arcPd, arcPm, arcSize, states, hits, noGrow, warm, growTime,
                evictNeeded, evictCount, needFree, waiterCounts, headers, statList);
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
                    bump(h.prescientPrefetch ? Arc22Stat.DEMAND_HIT_PRESCIENT_PREFETCH
                            : Arc22Stat.DEMAND_HIT_PREDICTIVE_PREFETCH);
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
                bump(Arc22Stat.MRU_HITS);
                if (wasPrefetch) {
                    h.lastAccess = now;
                } else if (now > h.lastAccess + config.minTimeTicks()) {
                    h.lastAccess = now;
                    changeState(h, ArcState.MFU);
                }
            }
            case MRU_GHOST -> {
                bump(Arc22Stat.MRU_GHOST_HITS);
                h.lastAccess = now;
                ghostHits[h.type.ordinal()] += h.size;
                changeState(h, wasPrefetch ? ArcState.MRU : ArcState.MFU);
            }
            case MFU -> {
                bump(Arc22Stat.MFU_HITS);
                h.lastAccess = now;
            }
            case MFU_GHOST -> {
                bump(Arc22Stat.MFU_GHOST_HITS);
                h.lastAccess = now;
                ghostHits[TYPES + h.type.ordinal()] += h.size;
                changeState(h, ArcState.MFU);
            }
        }
    }

    // ---- buffers, references and state changes ----

    /**
     * {@code arc_buf_alloc_impl} (C2708): the buffer takes a reference, then shares the header's data if it is
     * the header's only buffer, nothing is shared yet and the data is a linear ABD (C2770–2779), or else gets a
     * private copy from {@code arc_get_data_buf}, counted in {@code overhead_size}.
     */
    private void allocateBuffer(Header h) {
        addReference(h);
        if (h.hasData && h.buffers() == 1 && !h.sharedData && ArcArithmetic.linearAbd(tunables, h.size)) {
            h.sharedData = true;
        } else {
            getDataImpl(h, EnumSet.noneOf(HdrAllocFlag.class));
            stats[Arc22Stat.OVERHEAD_SIZE.ordinal()] += h.size;
        }
    }

    /**
     * {@code arc_buf_destroy} (C3671): a private copy is freed; the shared buffer's data stays the header's, and
     * if other buffers remain the last of them takes over the sharing at the same cost as freeing a copy
     * (C3045–3130). Then {@code remove_reference}.
     */
    private void destroyBuffer(Header h) {
        if (h.buffers() > (h.sharedData ? 1 : 0)) {
            returnData(h);
            stats[Arc22Stat.OVERHEAD_SIZE.ordinal()] -= h.size;
        } else {
            h.sharedData = false;
        }
        removeReference(h);
    }

    /** {@code add_reference} (C2273): the 0 → 1 transition takes the header off its list. */
    private void addReference(Header h) {
        if (h.refcount == 0 && h.state != ArcState.ANON) {
            int i = Arc22Snapshot.index(h.state, h.type);
            lists[i].remove(h.sublist, h);
            stateEsize[i] -= h.accountedSize();
        }
        h.refcount++;
    }

    /**
     * {@code remove_reference} (C2298): the 1 → 0 transition puts the header at the head of its list, or destroys
     * an anonymous one.
     */
    private void removeReference(Header h) {
        if (--h.refcount == 0) {
            if (h.state == ArcState.ANON) {
                return;
            }
            int i = Arc22Snapshot.index(h.state, h.type);
            lists[i].insertHead(h);
            stateEsize[i] += h.accountedSize();
        }
    }

    /** {@code arc_change_state} (C2381): moves a header and its accounting to another state. */
    private void changeState(Header h, ArcState to) {
        int from = Arc22Snapshot.index(h.state, h.type);
        long oldSize = h.accountedSize();
        if (h.refcount == 0 && h.state.hasList()) {
            lists[from].remove(h.sublist, h);
            stateEsize[from] -= oldSize;
        }
        stateSize[from] -= oldSize;
        h.state = to;
        int into = Arc22Snapshot.index(to, h.type);
        long newSize = h.accountedSize();
        stateSize[into] += newSize;
        if (h.refcount == 0 && to.hasList()) {
            lists[into].insertHead(h);
            stateEsize[into] += newSize;
        }
    }

    /** {@code arc_change_state(arc_anon)} and {@code arc_hdr_destroy}. */
    private void destroy(Header h) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h.key);
        if (h.hasData) {
            freeData(h);
        }
    }

    // ---- allocation (arc_get_data_impl, C4873) and arc_adapt (C4704) ----

    /** {@code arc_hdr_alloc_abd}: the header's data through {@code arc_get_data_impl}. */
    private void allocateHeaderData(Header h, Set<HdrAllocFlag> flags) {
        getDataImpl(h, flags);
        h.hasData = true;
        countHeaderData(h.size);
    }

    private void countHeaderData(long delta) {
        stats[Arc22Stat.COMPRESSED_SIZE.ordinal()] += delta;
        stats[Arc22Stat.UNCOMPRESSED_SIZE.ordinal()] += delta;
    }

    /**
     * {@code arc_get_data_impl}: {@code arc_adapt} for every allocation, then {@code arc_wait_for_eviction} (with
     * the header's hash lock held if it is hashed), then the new data is counted (in the header's state unless a
     * ghost, evictable if the header is on its list).
     */
    private void getDataImpl(Header h, Set<HdrAllocFlag> flags) {
        adapt(h.size);
        int previouslyLocked = lockedStripe;
        lockedStripe = hashTable.get(h.key) == h ? BufHash.hashLockOf(h.key) : -1;
        try {
            waitForEviction(ArcArithmetic.evictionWaitAmount(config, h.size),
                    flags.contains(HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } finally {
            lockedStripe = previouslyLocked;
        }
        arcSize += h.size;
        if (!h.state.isGhost()) {
            int i = Arc22Snapshot.index(h.state, h.type);
            stateSize[i] += h.size;
            if (h.linked) {
                stateEsize[i] += h.size;
            }
        }
    }

    private void freeData(Header h) {
        returnData(h);
        h.hasData = false;
        countHeaderData(-h.size);
    }

    /** {@code arc_free_data_impl} (C4954). */
    private void returnData(Header h) {
        int i = Arc22Snapshot.index(h.state, h.type);
        if (h.linked) {
            stateEsize[i] -= h.size;
        }
        stateSize[i] -= h.size;
        arcSize -= h.size;
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

    private void reduceTargetSizeImpl(long toFree) {
        long c = arcC;
        arcC = Arc22Arithmetic.reducedTarget(config, c, arcSize, toFree);
        if (Arc22Arithmetic.reduceWakesEvictor(config, c, arcC, arcSize)) {
            evictNeeded = true;
        }
    }

    // ---- overflow and eviction waiters (C4737, C4795) ----

    private static final class Waiter {
        final long count;

        Waiter(long count) {
            this.count = count;
        }
    }

    /** {@code arc_wait_for_eviction}: as 2.1.1's ({@link ZfsArc}), with zfs-2.2.0's overflow levels. */
    private void waitForEviction(long amount, boolean useReserve) {
        switch (Arc22Arithmetic.overflowLevel(config, arcC, arcSize, useReserve)) {
            case NONE -> {
            }
            case SOME -> evictNeeded = true;
            case SEVERE -> {
                long last = 0;
                if (!waiters.isEmpty()) {
                    last = waiters.peekLast().count;
                } else if (!evictNeeded) {
                    evictNeeded = true;
                }
                Waiter waiter = new Waiter(ArcArithmetic.waiterCount(last, evictCount, amount));
                waiters.addLast(waiter);
                setNeedFree();
                bump(Arc22Stat.EVICT_WAITS);
                while (waiters.contains(waiter)) {
                    if (!evictNeeded) {
                        throw LostWakeup.violation(waiter.count);
                    }
                    evictCb();
                }
            }
        }
    }

    /** {@code arc_set_need_free} (C3843). */
    private void setNeedFree() {
        needFree = ArcArithmetic.needFree(memory.freeMemory(), config.sysFree(), !waiters.isEmpty(),
                waiters.isEmpty() ? 0 : waiters.peekLast().count, evictCount);
    }

    // ---- the evict zthr (C4512) and arc_evict (C4222) ----

    /** {@code arc_evict_cb}: one pass ({@code arc_evict_needed} is set), then decides whether to go on. */
    private void evictCb() {
        bump(Arc22Stat.EVICTOR_RUNS);
        long evicted = evict();
        evictNeeded = evicted != 0 && Long.compareUnsigned(arcSize, arcC) > 0;
        if (!evictNeeded) {
            waiters.clear();
            setNeedFree();
        }
    }

    private long size(ArcState state, BufType type) {
        return stateSize[Arc22Snapshot.index(state, type)];
    }

    /**
     * {@code arc_evict}: adapts the three fractions by the ghost hits since the last pass, then evicts MRU
     * metadata, MFU metadata, MRU data and MFU data toward their targets, each capped by the remaining excess,
     * then trims the four ghost lists; returns the live bytes evicted.
     */
    private long evict() {
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

    /** {@code arc_evict_impl} (C4165). */
    private long evictImpl(ArcState state, BufType type, long request) {
        long bytes = Arc22Arithmetic.evictImplBytes(request, stateEsize[Arc22Snapshot.index(state, type)]);
        return bytes == 0 ? 0 : evictState(lists[Arc22Snapshot.index(state, type)], bytes);
    }

    /** {@code arc_evict_state} (C4025): markers at every sublist's tail, then {@link ArcArithmetic#evictState}. */
    private long evictState(Multilist ml, long bytes) {
        int n = ml.sublists();
        ListNode[] markers = new ListNode[n];
        for (int i = 0; i < n; i++) {
            markers[i] = new ListNode();
            ml.insertTail(i, markers[i]);
        }
        long total = ArcArithmetic.evictState(random, n, bytes,
                (idx, wanted) -> evictStateImpl(ml, idx, markers[idx], wanted),
                () -> bump(Arc22Stat.EVICT_NOT_ENOUGH));
        for (int i = 0; i < n; i++) {
            ml.remove(i, markers[i]);
        }
        return total;
    }

    /** {@code arc_evict_state_impl} (C3857): as 2.1.1's ({@link ZfsArc}). */
    private long evictStateImpl(Multilist ml, int idx, ListNode marker, long bytes) {
        long evicted = 0;
        long realEvicted = 0;
        int budget = tunables.evictBatchLimit();
        for (ListNode n = marker.newer; n != null; n = marker.newer) {
            if (budget <= 0 || Long.compareUnsigned(evicted, bytes) >= 0) {
                break;
            }
            ml.moveForward(idx, marker);
            if (!(n instanceof Header h)) {
                continue;
            }
            if (lockedStripe >= 0 && BufHash.hashLockOf(h.key) == lockedStripe) {
                bump(Arc22Stat.MUTEX_MISS);
                continue;
            }
            boolean ghost = h.state.isGhost();
            long e = evictHeader(h);
            evicted += e;
            if (!ghost) {
                realEvicted += e;
            }
            if (e != 0) {
                budget--;
            }
        }
        evictCount += realEvicted;
        if (Long.compareUnsigned(memory.freeMemory(), config.sysFree() / 2) > 0) {
            while (!waiters.isEmpty() && Long.compareUnsigned(waiters.peekFirst().count, evictCount) <= 0) {
                waiters.removeFirst();
            }
        }
        setNeedFree();
        return evicted;
    }

    /**
     * {@code arc_evict_hdr} (C3720): a ghost header is destroyed; a cached one loses its data and moves to its
     * ghost state, unless it is a prefetch younger than its minimum lifetime.
     */
    private long evictHeader(Header h) {
        if (h.state.isGhost()) {
            bump(Arc22Stat.DELETED);
            report(h);
            destroy(h);
            return h.size;
        }
        if (ArcArithmetic.evictSkipsPrefetch(config, h.prefetch, h.prescientPrefetch, h.lastAccess, now)) {
            bump(Arc22Stat.EVICT_SKIP);
            return 0;
        }
        report(h);
        freeData(h);
        changeState(h, ArcArithmetic.ghostOf(h.state));
        bump(Arc22Stat.EVICTIONS);
        stats[Arc22Stat.EVICTED_BYTES.ordinal()] += h.size;
        return h.size;
    }

    private void report(Header h) {
        if (evictionProbe != NO_PROBE) {
            evictionProbe.accept(new Eviction(h.key, h.size, h.state, h.type));
        }
    }

    private Outcome afterOperation(Outcome outcome) {
        if (config.evictorRunsAfterEachOperation()) {
            while (evictNeeded) {
                evictCb();
            }
        }
        return outcome;
    }

    private long availableMemory() {
        return memory.freeMemory() - config.sysFree();
    }

    private void bump(Arc22Stat stat) {
        stats[stat.ordinal()]++;
    }
}
