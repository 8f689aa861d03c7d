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
public final class ZfsArc implements ArcOperations {

    /*
     * Implementation overview. State is kept as ZFS keeps it: per state a size and an evictable
     * size (arcs_size, arcs_esize), a multilist of unreferenced headers, the u64 globals arc_c,
     * arc_p, arc_evict_count, and arc_size as an exact counter where ZFS has an aggsum (so
     * aggsum_value, aggsum_compare, aggsum_lower_bound and aggsum_upper_bound all read it). Hashed
     * headers (MRU, MFU, ghosts) are in hashTable; anonymous headers of pending writes, which ZFS
     * does not hash, are in pendingWrites under the key they will have. Each method names the ZFS
     * function it models; private helpers follow the call graph of arc.c. The policy arithmetic
     * (arc_adapt's moves, the overflow levels, the eviction targets, arc_reduce_target_size, the
     * reaper's to_free, the arc_p growth predicate, arc_access's transition, every QuirkFix switch) is
     * ArcArithmetic's, shared with the concurrent ARC; this class holds the state and applies it.
     *
     * The buffer state machine (hit, readDone, addReference, destroyBuffer, writeStart, writeReady, access,
     * destroy, allocateHeaderData, getDataImpl, evictStateImpl, afterOperation, setFreeMemory, and Header's fields)
     * stands again, by copy, paste and adapt, in org.arcref.arc.ConcurrentArc (and ArcHeader), between the locks and
     * atomics that make it thread-safe. It is kept as two copies so that this one stays a plain transcription of
     * arc.c with no abstraction over locking; D1 (DifferentialD1Properties, X1) compares the two after every
     * operation, so a change made to one copy only fails the default build.
     */

    /** The probe of an ARC nobody observes; {@link #evictHeader} then builds no {@link Eviction}. */
    private static final Consumer<Eviction> NO_PROBE = eviction -> { };

    private final ArcConfig config;
    private final Tunables tunables;
    private final MemoryModel memory;
    private final Consumer<Eviction> evictionProbe;
    private final Map<Long, Header> hashTable = new HashMap<>();
    private final Map<Long, Header> pendingWrites = new HashMap<>();
    private final Multilist[] lists = new Multilist[ArcState.values().length];
    private final long[] stateSize = new long[ArcState.values().length];
    private final long[] stateEsize = new long[ArcState.values().length];
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final long[] stats = new long[ArcStat.values().length];
    private final SplitMix64 random;

    private long arcC;
    private long arcP;
    private long arcSize;
    private boolean noGrow;
    private boolean warm;
    private long growTime;
    private boolean evictNeeded;
    private long evictCount;
    private long needFree;
    private long now;
    /** The hash lock an allocation that waits for eviction holds (that of a hashed header), or -1. */
    private int lockedStripe = -1;

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
        this.config = Validate.notNull("config", config);
        this.memory = Validate.notNull("memory", memory);
        this.evictionProbe = Validate.notNull("evictionProbe", evictionProbe);
        this.tunables = config.tunables();
        ArcArguments.requireEngineFixes(ZfsEngine.V2_1_1, config.fixes());
        for (ArcState s : ArcState.values()) {
            if (s.hasList()) {
                lists[s.ordinal()] = new Multilist(config.sublists());
            }
        }
        this.random = new SplitMix64(config.seed());
        this.arcC = config.cMin();
        this.arcP = arcC >>> 1;
    }

    /** @return the configuration */
    @Override
    public ArcConfig config() {
        return config;
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
     * {@link #write(long, long)} of a data block; zfs-2.1.1's engine models data buffers only.
     *
     * @throws IllegalArgumentException also if {@code type} is metadata
     */
    @Override
    public Outcome write(long key, long size, BufType type) {
        ArcArguments.requireData(type);
        return write(key, size);
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
        ArcArguments.requireBlockSize(size, config);
        Header existing = hashTable.get(key);
        ArcArguments.requireNewKey("key", key, pendingWrites.containsKey(key),
                existing == null ? null : existing.state);
        Header h = new Header(key, size, ArcArithmetic.sublistOf(key, config.sublists()));
        pendingWrites.put(key, h);
        allocateBuffer(h);
        return afterOperation(Outcome.WRITTEN);
    }

    /**
     * {@code arc_write_ready} and {@code arc_write_done}: the pending write of {@code key} reached
     * disk. The header gets its data: with {@link Tunables#abdScatterEnabled()} a new allocation
     * (adapting, and allowed into the overflow reserve) that copies the writer's buffer, otherwise the
     * writer's buffer itself, shared. It is then hashed and moved from anon to MRU by
     * {@code arc_access}, and the writer's buffer destroyed unless {@code hold}.
     *
     * @param key a key with a pending write
     * @param hold whether the writer keeps its reference
     * @return {@link Outcome#WRITE_COMPLETED}
     * @throws IllegalArgumentException if the key has no pending write
     */
    @Override
    public Outcome completeWrite(long key, boolean hold) {
        Header h = pendingWrites.get(key);
        ArcArguments.requirePending(key, h != null);
        pendingWrites.remove(key);
        writeReady(h);
        hashTable.put(key, h);
        access(h);
        if (!hold) {
            destroyBuffer(h);
        }
        return afterOperation(Outcome.WRITE_COMPLETED);
    }

    /**
     * Releases one hold on a cached block ({@code arc_buf_destroy}, {@code remove_reference}); the
     * last release puts the header at the head of its eviction list.
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
     * A cached block overwritten while one of its buffers is held: {@code arc_release} of that buffer (arc.c
     * C6527), then the start of {@code arc_write} (C7028–7110), which leaves the buffer as the anonymous pending
     * write of {@code newKey}, the identity the rewritten block gets when its write completes
     * ({@link #completeWrite}, {@code arc_write_done}; ZFS writes are copy-on-write, so {@code newKey} is new).
     * {@link #completeWrite} or {@link #free} finish it like any {@link #write}. Two branches (C6603):
     * <ul>
     *   <li><b>Lone buffer</b> (refcount 1; C6719–6735): the header itself goes to anon with all its bytes
     *       ({@code arc_change_state}), which takes it out of the hash table (C2449–2450), and loses its identity
     *       ({@code buf_discard_identity}, C6733): {@code key} is then neither cached nor a ghost. The header keeps
     *       its prefetch flags; its access time becomes 0 (C6730).</li>
     *   <li><b>Other buffers remain</b> (refcount above 1; C6603–6718): the buffer leaves the header, which stays
     *       cached and held with one hold fewer, and moves to a new anonymous header ({@code arc_hdr_alloc},
     *       C6701) holding it: {@code arc_buf_size} bytes move from the old state's size to anon's.</li>
     * </ul>
     * {@code arc_release} allocates and frees nothing: {@code arc_size}, the evictable sizes, {@code arc_c} and
     * {@code arc_p} do not change and the evictor is not woken. {@code arc_write} then drops the stale data a lone
     * buffer's header still has (C7094-7097): data the buffer shares is left to it, which then counts in
     * {@code overhead_size}; unshared data is freed, so {@code arc_size} falls by the block's size. Unshared are all
     * scatter data (with {@link Tunables#abdScatterEnabled()}, blocks of {@link Tunables#abdScatterMinSize()} bytes or
     * more) and the linear data a written block got of its own in {@code arc_write_ready}. Either way the pending
     * write then costs its size once, as a {@link #write}'s does.
     *
     * @param key a key whose cached header is held
     * @param newKey the identity the rewritten block will have: not cached, not a ghost, not pending
     * @return {@link Outcome#OVERWRITTEN}
     * @throws IllegalArgumentException if {@code key} is not cached with a hold, or {@code newKey} is not new
     */
    @Override
    public Outcome overwrite(long key, long newKey) {
        Header h = hashTable.get(key);
        ArcArguments.requireHeld(key, h == null ? null : h.state, h == null ? 0 : h.refcount);
        Header existing = hashTable.get(newKey);
        ArcArguments.requireNewKey("newKey", newKey, pendingWrites.containsKey(newKey),
                existing == null ? null : existing.state);
        int sublist = ArcArithmetic.sublistOf(newKey, config.sublists());
        Header anon = h.refcount == 1 ? releaseLoneBuffer(h, newKey, sublist) : releaseOneBuffer(h, newKey, sublist);
        writeStart(anon);
        pendingWrites.put(newKey, anon);
        return afterOperation(Outcome.OVERWRITTEN);
    }

    /**
     * {@code arc_freed}: the block was freed on disk. An unreferenced header (cached or ghost) is
     * destroyed; a referenced one is left alone, as ZFS does; a pending write is discarded with its
     * dirty buffer.
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
     * {@code arc_reduce_target_size}: lowers {@code arc_c} by {@code toFree} from the smaller of
     * {@code arc_c} and the exact size, never below {@code arc_c_min}, and wakes the evictor if the
     * size is now above the target. In the {@code else} branch {@code arc_p} is left alone (quirk
     * O2) unless {@link QuirkFix#SHRINK_CLAMPS_ARC_P_OURS} applies.
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
     * One iteration of the evict zthr: {@code arc_evict_cb_check} and, if it says so,
     * {@code arc_evict_cb}.
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
     * One iteration of the reap zthr: {@code arc_reap_cb_check}, which updates
     * {@code arc_no_grow} from the memory model, and, if it finds memory short,
     * {@code arc_reap_cb}, which reduces the target by {@code (arc_c >> arc_shrink_shift) -
     * arc_available_memory()} (from {@code arc_c - arc_c_min} with
     * {@link QuirkFix#REAP_ABOVE_C_MIN_13794}). The cache reaping and the 1 s delay of the callback
     * are not modelled.
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
            long toFree = ArcArithmetic.reapToFree(config, arcC, free);
            if (toFree > 0) {
                reduceTargetSizeImpl(toFree);
            }
            return afterOperation(Outcome.REAPED);
        }
        noGrow = ArcArithmetic.reapNoGrow(config, free, arcC, now, growTime, noGrow);
        return afterOperation(Outcome.IDLE);
    }

    /**
     * Advances the logical clock ({@code ddi_get_lbolt()}).
     *
     * @param ticks how far, at least 0
     * @return {@link Outcome#TICKED}
     * @throws IllegalArgumentException if {@code ticks} is negative
     */
    @Override
    public Outcome tick(long ticks) {
        ArcArguments.requireTicks(ticks, now);
        now += ticks;
        return afterOperation(Outcome.TICKED);
    }

    /**
     * Sets the free memory of an {@link AdjustableMemory} model, for traces that script memory
     * pressure.
     *
     * @param bytes the free memory, at least 0
     * @return {@link Outcome#MEMORY_SET}
     * @throws IllegalStateException if the memory model is not adjustable
     * @throws IllegalArgumentException if {@code bytes} is negative
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

    /** @return {@code arc_c} */
    public long targetSize() {
        return arcC;
    }

    /** @return {@code arc_p} */
    public long mruTarget() {
        return arcP;
    }

    /** @return {@code arc_size}, exact */
    public long size() {
        return arcSize;
    }

    /** @param stat a statistic @return its current value */
    public long stat(ArcStat stat) {
        return stats[stat.ordinal()];
    }

    /**
     * The one part of the state that decides future behaviour and is not in the {@link #snapshot()}: the state of
     * the generator behind {@code multilist_get_random_index}, which picks the sublist where each eviction scan
     * starts. The snapshot leaves it out because it is not ZFS state a port could compare (a port draws its own
     * random numbers). With the snapshot and the memory model's free memory it determines every later outcome;
     * the exhaustive explorer ({@code org.arcref.exhaustive.StateEncoding}) encodes states from the three.
     * Eviction markers and eviction waiters exist only inside an operation, so no other internal state remains.
     *
     * @return the state of the sublist-start generator ({@link SplitMix64#state()})
     */
    public long sublistStartState() {
        return random.state();
    }

    /** @return the whole state, immutable; costs time linear in the number of headers */
    public ArcSnapshot snapshot() {
        List<StateSnapshot> states = new ArrayList<>();
        for (ArcState s : ArcState.values()) {
            states.add(new StateSnapshot(stateSize[s.ordinal()], stateEsize[s.ordinal()]));
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
                lists[s.ordinal()].collect(headers);
                held.getOrDefault(s, new TreeMap<>()).values().forEach(h -> headers.add(h.snapshot()));
            }
        }
        List<Long> waiterCounts = new ArrayList<>();
        waiters.forEach(w -> waiterCounts.add(w.count));
        return new ArcSnapshot(now, arcC, arcP, config.cMin(), config.cMax(), arcSize, noGrow, warm, growTime,
                evictNeeded, evictCount, needFree, waiterCounts, states, headers, new ArcStats(stats));
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

    // ---- buffers, references and state changes ----

    /**
     * {@code arc_buf_alloc_impl}: a new buffer takes a reference (arc.c:2745), then shares the
     * header's data if {@code arc_can_share} (no other buffer, nothing shared yet) and that data is a
     * linear ABD (C2791-2800), or else gets a private copy from {@code arc_get_data_buf}, which
     * adapts (C2803-2805, C5182), counted in {@code overhead_size}.
     */
    private void allocateBuffer(Header h) {
        addReference(h);
        if (h.hasData && h.refcount == 1 && ArcArithmetic.linearAbd(tunables, h.size)) {
            h.sharedData = true;
        } else {
            getDataImpl(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT));
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] += h.size;
        }
    }

    /**
     * {@code arc_buf_destroy} (arc.c:3829): {@code arc_buf_destroy_impl} frees a private copy
     * (C3086-3088); destroying the shared buffer while others remain frees the header's data and
     * shares the last remaining buffer instead (C3113-3141), which costs the same bytes and
     * {@code overhead_size} as freeing a copy, so which buffer is destroyed does not matter; the
     * last shared buffer leaves its data to the header (C3084). Then {@code remove_reference}.
     */
    private void destroyBuffer(Header h) {
        if (h.refcount > (h.sharedData ? 1 : 0)) {
            returnData(h);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] -= h.size;
        } else {
            h.sharedData = false;
        }
        removeReference(h);
    }

    /**
     * {@code add_reference}: the 0 → 1 transition takes the header off its list, with the bytes it
     * had before this buffer.
     */
    private void addReference(Header h) {
        if (h.refcount == 0 && h.state != ArcState.ANON) {
            lists[h.state.ordinal()].remove(h.sublist, h);
            stateEsize[h.state.ordinal()] -= h.accountedSize();
            h.prefetch = false;
        }
        h.refcount++;
    }

    /** {@code remove_reference}: the 1 → 0 transition puts the header at the head of its list. */
    private void removeReference(Header h) {
        if (--h.refcount == 0 && h.state != ArcState.ANON) {
            lists[h.state.ordinal()].insertHead(h);
            stateEsize[h.state.ordinal()] += h.accountedSize();
        }
    }

    /**
     * {@code arc_write_ready} for an unencrypted, uncompressed block (arc.c:6885-6915): where
     * {@link ArcArithmetic#writeReadyCopies} says so (in 2.1.1 whenever {@code zfs_abd_scatter_enabled}) the header
     * gets data of its own, allocated with {@code ARC_HDR_DO_ADAPT | ARC_HDR_USE_RESERVE}, and the writer's buffer
     * stays a copy; otherwise {@code arc_can_share} holds (the writer's buffer is the only one) and
     * {@code arc_share_buf} makes the buffer's data the header's (C2960-2988).
     */
    private void writeReady(Header h) {
        if (ArcArithmetic.writeReadyCopies(config, h.size)) {
            allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT, HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } else {
            h.hasData = true;
            h.sharedData = true;
            countHeaderData(h.size);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] -= h.size;
        }
    }

    /**
     * {@code arc_release}'s lone-buffer branch (C6719–6735): {@code arc_change_state(arc_anon)} (C6729) moves the
     * held header (on no list, so C2417–2446 leave the lists and evictable sizes alone) and all its bytes from its
     * state to anon (C2454–2570) and takes it out of the hash table (C2449–2450); {@code b_arc_access = 0}
     * (C6730); {@code buf_discard_identity} (C6733).
     *
     * @return the same header under {@code newKey}, the identity {@code arc_write_done} will give it
     */
    private Header releaseLoneBuffer(Header h, long newKey, int sublist) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h.key);
        h.lastAccess = 0;
        return h.renamed(newKey, sublist);
    }

    /**
     * {@code arc_release} with other buffers remaining (C6603–6718): the buffer leaves the header and moves to a
     * new anonymous one.
     *
     * @return the new anonymous header, under {@code newKey}
     */
    private Header releaseOneBuffer(Header h, long newKey, int sublist) {
        /*
         * C6614 remove_reference and C6684 b_bufcnt -= 1: one hold and one buffer fewer. Each hold is a buffer and
         * another remains, so the header stays referenced: off its list, its evictable size untouched (the branch
         * of C6677-6682 is not taken). C6633-6656: if the buffer leaving is the one sharing the header's data,
         * arc_unshare_buf and arc_share_buf pass the sharing to the last buffer left, moving no bytes
         * (C3001-3002, C2972-2973): arc_can_share holds for it, as blocks here are neither compressed, encrypted
         * nor byteswapped, so C6652's arc_hdr_alloc_abd never runs.
         */
        h.refcount--;
        stateSize[h.state.ordinal()] -= h.size; // C6674-6675: arc_buf_size(buf) leaves the old state
        Header anon = new Header(newKey, h.size, sublist); // C6701 arc_hdr_alloc: anon, no flags, b_arc_access 0
        anon.refcount = 1; // C6709-6713: the buffer and its hold move to the new header, a private copy
        stateSize[ArcState.ANON.ordinal()] += anon.size; // C6717-6718
        return anon;
    }

    /**
     * The start of {@code arc_write} (C7083–7100): the anonymous header's data ({@code b_pabd}) is stale. If the
     * writer's buffer shares it, {@code arc_unshare_buf} (C2991–3010) leaves the bytes to the buffer, which becomes
     * a private copy ({@code overhead_size}); otherwise {@code arc_hdr_free_abd} frees it (C3201). Either way the
     * header is left as {@link #write} leaves one: no data of its own, one buffer with a private copy. Only the
     * lone-buffer branch of {@code arc_release} leaves data here: {@code arc_hdr_alloc} (C6701) allocates none.
     */
    private void writeStart(Header h) {
        if (!h.hasData) {
            return;
        }
        if (h.sharedData) {
            h.hasData = false;
            h.sharedData = false;
            countHeaderData(-h.size);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] += h.size;
        } else {
            freeData(h);
        }
    }

    /** {@code arc_change_state}: moves a header and its accounting to another state. */
    private void changeState(Header h, ArcState to) {
        ArcState from = h.state;
        long oldSize = h.accountedSize();
        if (h.refcount == 0 && from.hasList()) {
            lists[from.ordinal()].remove(h.sublist, h);
            stateEsize[from.ordinal()] -= oldSize;
        }
        stateSize[from.ordinal()] -= oldSize;
        h.state = to;
        long newSize = h.accountedSize();
        stateSize[to.ordinal()] += newSize;
        if (h.refcount == 0 && to.hasList()) {
            lists[to.ordinal()].insertHead(h);
            stateEsize[to.ordinal()] += newSize;
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

    /** {@code arc_change_state(arc_anon)} and {@code arc_hdr_destroy}. */
    private void destroy(Header h) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h.key);
        if (h.hasData) {
            freeData(h);
        }
    }

    // ---- allocation (arc_get_data_impl) and adaptation ----

    /**
     * {@code arc_hdr_alloc_abd} (arc.c:3171): the header's data, through {@code arc_get_data_impl},
     * counted in {@code compressed_size} and {@code uncompressed_size}.
     */
    private void allocateHeaderData(Header h, Set<HdrAllocFlag> flags) {
        getDataImpl(h, flags);
        h.hasData = true;
        countHeaderData(h.size);
    }

    /** {@code compressed_size} and {@code uncompressed_size} move together: nothing is compressed. */
    private void countHeaderData(long delta) {
        stats[ArcStat.COMPRESSED_SIZE.ordinal()] += delta;
        stats[ArcStat.UNCOMPRESSED_SIZE.ordinal()] += delta;
    }

    /**
     * {@code arc_get_data_impl} (arc.c:5277), for a header's data or a buffer's private copy: adapt
     * ({@code ARC_HDR_DO_ADAPT}), wait for eviction ({@code ARC_HDR_USE_RESERVE}), account the new
     * data, and grow {@code arc_p} for anonymous data while the size is certainly below the target (the
     * upper-bound check of commit c1b5801bb5).
     */
    private void getDataImpl(Header h, Set<HdrAllocFlag> flags) {
        ArcState state = h.state;
        long size = h.size;
        if (flags.contains(HdrAllocFlag.ARC_HDR_DO_ADAPT)) {
            adapt(size, state);
        }
        int previouslyLocked = lockedStripe;
        lockedStripe = hashTable.get(h.key) == h ? BufHash.hashLockOf(h.key) : -1;
        try {
            waitForEviction(ArcArithmetic.evictionWaitAmount(config, size),
                    flags.contains(HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } finally {
            lockedStripe = previouslyLocked;
        }
        arcSize += size;
        if (!state.isGhost()) {
            stateSize[state.ordinal()] += size;
            if (h.linked) {
                stateEsize[state.ordinal()] += size;
            }
            if (Long.compareUnsigned(arcSize, arcC) < 0 && h.state == ArcState.ANON
                    && ArcArithmetic.anonDataGrowsMruTarget(config, stateSize[ArcState.ANON.ordinal()],
                            stateSize[ArcState.MRU.ordinal()], arcP, arcC)) {
                arcP = ArcArithmetic.grownMruTarget(arcP, arcC, size);
            }
        }
    }

    /** {@code arc_hdr_free_abd}: frees a header's data ({@code b_pabd}). */
    private void freeData(Header h) {
        returnData(h);
        h.hasData = false;
        countHeaderData(-h.size);
    }

    /** {@code arc_free_data_impl}: returns one block's worth of data of a header to the system. */
    private void returnData(Header h) {
        int s = h.state.ordinal();
        if (h.linked) {
            stateEsize[s] -= h.size;
        }
        stateSize[s] -= h.size;
        arcSize -= h.size;
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
                    stateSize[ArcState.MRU_GHOST.ordinal()], stateSize[ArcState.MFU_GHOST.ordinal()]);
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
    private void reduceTargetSizeImpl(long toFree) {
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

    // ---- overflow and eviction waiters ----

    /** {@code arc_evict_waiter_t}: compared by identity; {@code count} is {@code aew_count}. */
    private static final class Waiter {
        final long count;

        Waiter(long count) {
            this.count = count;
        }
    }

    /**
     * {@code arc_wait_for_eviction(amount, use_reserve)}: SOME wakes the evictor; SEVERE queues a
     * waiter for {@code MAX(last, arc_evict_count) + amount} and blocks until it is released, here
     * by running the evict zthr inline.
     */
    private void waitForEviction(long amount, boolean useReserve) {
        switch (ArcArithmetic.overflowLevel(config, arcC, arcSize, useReserve)) {
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
                bump(ArcStat.EVICT_WAITS);
                while (waiters.contains(waiter)) {
                    if (!evictNeeded) {
                        throw LostWakeup.violation(waiter.count);
                    }
                    evictCb();
                }
            }
        }
    }

    /** {@code arc_set_need_free} (fact sheet d.4). */
    private void setNeedFree() {
        needFree = ArcArithmetic.needFree(memory.freeMemory(), config.sysFree(), !waiters.isEmpty(),
                waiters.isEmpty() ? 0 : waiters.peekLast().count, evictCount);
    }

    // ---- the evict zthr ----

    /** {@code arc_evict_cb}: one eviction pass, then decides whether to go on (fact sheet d.7). */
    private void evictCb() {
        bump(ArcStat.EVICTOR_RUNS);
        long evicted = evict();
        evictNeeded = evicted != 0 && Long.compareUnsigned(arcSize, arcC) > 0;
        if (!evictNeeded) {
            waiters.clear();
            setNeedFree();
        }
    }

    /** {@code arc_evict}: one pass over MRU, MFU, MRU ghost and MFU ghost (fact sheet d.8). */
    private long evict() {
        long total = 0;
        long target = ArcArithmetic.evictTargetMru(arcSize, arcC, arcP, stateSize[ArcState.ANON.ordinal()],
                stateSize[ArcState.MRU.ordinal()]);
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MRU, target);
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MFU, ArcArithmetic.evictTargetMfu(arcSize, arcC));
        total += evictImpl(ArcState.MRU_GHOST, ArcArithmetic.evictTargetMruGhost(stateSize[ArcState.MRU.ordinal()],
                stateSize[ArcState.MRU_GHOST.ordinal()], arcC));
        total += evictImpl(ArcState.MFU_GHOST, ArcArithmetic.evictTargetMfuGhost(
                stateSize[ArcState.MRU_GHOST.ordinal()], stateSize[ArcState.MFU_GHOST.ordinal()], arcC));
        return total;
    }

    /** {@code arc_evict_impl}: a non-positive (s64) target means skip. */
    private long evictImpl(ArcState state, long target) {
        long bytes = ArcArithmetic.evictImplBytes(target, stateEsize[state.ordinal()]);
        return bytes == 0 ? 0 : evictState(state, bytes);
    }

    /**
     * {@code arc_evict_state}: markers at the tail of every sublist, then the scans of
     * {@link ArcArithmetic#evictState}. ({@code ARC_EVICT_ALL} is only asked for by
     * {@code arc_flush}, which is not modelled.)
     */
    private long evictState(ArcState state, long bytes) {
        Multilist ml = lists[state.ordinal()];
        int n = ml.sublists();
        ListNode[] markers = new ListNode[n];
        for (int i = 0; i < n; i++) {
            markers[i] = new ListNode();
            ml.insertTail(i, markers[i]);
        }
        long total = ArcArithmetic.evictState(random, n, bytes,
                (idx, wanted) -> evictStateImpl(ml, idx, markers[idx], wanted), () -> bump(ArcStat.EVICT_NOT_ENOUGH));
        for (int i = 0; i < n; i++) {
            ml.remove(i, markers[i]);
        }
        return total;
    }

    /**
     * {@code arc_evict_state_impl}: evicts from one sublist, oldest first, at most
     * {@code zfs_arc_evict_batch_limit} headers; then advances {@code arc_evict_count} and releases
     * the waiters whose count it reached, unless free memory is below {@code arc_sys_free / 2}.
     */
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
                bump(ArcStat.MUTEX_MISS);
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
     * {@code arc_evict_hdr}: a ghost header is destroyed (its logical size counts as evicted, but
     * nothing real, as header memory is not modelled); a cached one loses its data and moves to its
     * ghost state, unless it is a prefetch younger than its minimum lifetime.
     */
    private long evictHeader(Header h) {
        if (h.state.isGhost()) {
            bump(ArcStat.DELETED);
            report(h);
            destroy(h);
            return h.size;
        }
        if (ArcArithmetic.evictSkipsPrefetch(config, h.prefetch, h.prescientPrefetch, h.lastAccess, now)) {
            bump(ArcStat.EVICT_SKIP);
            return 0;
        }
        long size = h.size;
        report(h);
        freeData(h);
        changeState(h, ArcArithmetic.ghostOf(h.state));
        bump(ArcStat.EVICTIONS);
        stats[ArcStat.EVICTED_BYTES.ordinal()] += size;
        return size;
    }

    // ---- helpers ----

    /** The {@code arc__evict} and {@code arc__delete} probes: {@code h} is about to be evicted from its state. */
    private void report(Header h) {
        if (evictionProbe != NO_PROBE) {
            evictionProbe.accept(new Eviction(h.key, h.size, h.state));
        }
    }

    /** Runs the evict zthr to quiescence if so configured; every public operation ends here. */
    private Outcome afterOperation(Outcome outcome) {
        if (config.evictorRunsAfterEachOperation()) {
            while (evictNeeded) {
                evictCb();
            }
        }
        return outcome;
    }

    /** {@code arc_available_memory()}: {@code arc_free_memory() - arc_sys_free}. */
    private long availableMemory() {
        return memory.freeMemory() - config.sysFree();
    }

    private void bump(ArcStat stat) {
        stats[stat.ordinal()]++;
    }
}
