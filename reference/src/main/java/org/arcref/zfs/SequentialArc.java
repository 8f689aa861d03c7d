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
 * What the two sequential engines of the spec, {@link ZfsArc} (zfs-2.1.1) and {@link Zfs22Arc} (zfs-2.2.0), share
 * because zfs-2.2.0's arc.c kept it from 2.1.1's: the hash table and the pending writes, each state's multilists and
 * its sizes and evictable sizes per buffer type, references and state changes ({@code add_reference},
 * {@code remove_reference}, {@code arc_change_state}), buffers and their data ({@code arc_buf_alloc_impl},
 * {@code arc_buf_destroy}, {@code arc_release} and the start of {@code arc_write}, {@code arc_freed}), eviction
 * waiters ({@code arc_wait_for_eviction}, {@code arc_set_need_free}), the evict zthr's callback around
 * {@code arc_evict}, and {@code arc_evict_state} down to {@code arc_evict_hdr}. An engine adds what its release
 * does its own way: reads and {@code arc_access}, {@code arc_adapt} and the rest of {@code arc_get_data_impl},
 * {@code arc_write_ready}, {@code arc_evict}, the overflow levels, {@code arc_reduce_target_size} and the reaper's
 * amount, and its snapshot. zfs-2.1.1's engine uses the data lists only.
 *
 * <p>Every public method is one operation; a rejected one throws {@link IllegalArgumentException} or
 * {@link IllegalStateException} naming the argument, the rule and the value, and leaves the state unchanged. Not
 * thread-safe.
 */
public abstract sealed class SequentialArc implements ArcOperations permits ZfsArc, Zfs22Arc {

    /*
     * Implementation overview. State is kept as ZFS keeps it: per state and buffer type a size, an evictable size
     * and a multilist of unreferenced headers (arcs_size, arcs_esize, arcs_list), indexed by index(state, type);
     * the u64 globals arc_c, arc_evict_count; arc_size as an exact counter where ZFS has an aggsum (so every aggsum
     * read is the exact value). Hashed headers are in hashTable; anonymous headers of pending writes, which ZFS does
     * not hash, are in pendingWrites under the key they will have. Where ZFS would block an allocating thread as an
     * eviction waiter, the engine runs evictor iterations inline, holding the allocating header's hash lock
     * (lockedStripe) so that eviction counts a mutex_miss on the headers that share it.
     */

    /** The probe of an ARC nobody observes; {@link #evictHeader} then builds no {@link Eviction}. */
    static final Consumer<Eviction> NO_PROBE = eviction -> { };
    private static final int TYPES = BufType.values().length;

    final ArcConfig config;
    final Tunables tunables;
    final MemoryModel memory;
    private final Consumer<Eviction> evictionProbe;
    final Map<Long, Header> hashTable = new HashMap<>();
    final Map<Long, Header> pendingWrites = new HashMap<>();
    private final Multilist[] lists = new Multilist[ArcState.values().length * TYPES];
    private final long[] stateSize = new long[ArcState.values().length * TYPES];
    private final long[] stateEsize = new long[ArcState.values().length * TYPES];
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    final long[] stats = new long[ArcStat.values().length];
    final SplitMix64 random;

    long arcC;
    long arcSize;
    boolean noGrow;
    boolean warm;
    long growTime;
    boolean evictNeeded;
    long evictCount;
    long needFree;
    long now;
    /** The hash lock an allocation that waits for eviction holds (that of a hashed header), or -1. */
    private int lockedStripe = -1;

    SequentialArc(ZfsEngine engine, ArcConfig config, MemoryModel memory, Consumer<Eviction> evictionProbe) {
        this.config = Validate.notNull("config", config);
        this.memory = Validate.notNull("memory", memory);
        this.evictionProbe = Validate.notNull("evictionProbe", evictionProbe);
        ArcArguments.requireEngineFixes(engine, config.fixes());
        this.tunables = config.tunables();
        for (ArcState s : ArcState.values()) {
            if (s.hasList()) {
                for (BufType t : BufType.values()) {
                    lists[index(s, t)] = new Multilist(config.sublists());
                }
            }
        }
        this.random = new SplitMix64(config.seed());
        this.arcC = config.cMin();
    }

    /** @return the configuration */
    @Override
    public ArcConfig config() {
        return config;
    }

    /**
     * {@code arc_alloc_buf}: a new anonymous header without data and one buffer, held by the writer, whose data
     * comes from {@code arc_get_data_buf}. ZFS writes are copy-on-write, so the key must be new: not cached, not a
     * ghost, not pending. With {@code uncached} the header is marked {@code ARC_FLAG_UNCACHED}, as {@code arc_write}
     * marks it before the write is issued (nothing reads the flag before {@code arc_write_ready}).
     *
     * @param key the identity the block will have once written
     * @param size the logical size: a multiple of 512 in [512, maxBlockSize]
     * @param type data or metadata (the engine's)
     * @param uncached {@code arc_write}'s {@code uncached} (the engine's)
     * @return {@link Outcome#WRITTEN}
     * @throws IllegalArgumentException for a bad size, type or {@code uncached}, or a key that is not new
     */
    @Override
    public Outcome write(long key, long size, BufType type, boolean uncached) {
        ArcArguments.requireBlockSize(size, config);
        requireType(type);
        requireUncached(uncached);
        Header existing = hashTable.get(key);
        ArcArguments.requireNewKey("key", key, pendingWrites.containsKey(key),
                existing == null ? null : existing.state);
        Header h = new Header(key, size, ArcArithmetic.sublistOf(key, config.sublists()), type);
        h.uncached = uncached;
        pendingWrites.put(key, h);
        allocateBuffer(h);
        return afterOperation(Outcome.WRITTEN);
    }

    /**
     * {@code arc_write_ready} and {@code arc_write_done}: the pending write of {@code key} reached disk. The header
     * shares the writer's buffer or gets data of its own ({@link #writeReady}); it is hashed, moved from anon to
     * MRU by {@code arc_access} ({@link #writeDone}), and the writer's buffer destroyed unless {@code hold}.
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
        writeReady(h);
        hashTable.put(key, h);
        writeDone(h);
        if (!hold) {
            destroyBuffer(h);
        }
        return afterOperation(Outcome.WRITE_COMPLETED);
    }

    /**
     * Releases one hold on a cached block ({@code arc_buf_destroy}, {@code remove_reference}); the last release
     * puts the header at the head of its eviction list.
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
     * A cached block overwritten while one of its buffers is held: {@code arc_release} of that buffer, then the
     * start of {@code arc_write}, which leaves the buffer as the anonymous pending write of {@code newKey}, the
     * identity the rewritten block gets when its write completes (ZFS writes are copy-on-write, so {@code newKey}
     * is new). {@link #completeWrite} or {@link #free} finish it like any {@link #write}. Two branches:
     * <ul>
     *   <li><b>Lone buffer</b> (refcount 1): the header itself goes to anon with all its bytes
     *       ({@code arc_change_state}), which takes it out of the hash table, and loses its identity
     *       ({@code buf_discard_identity}): {@code key} is then neither cached nor a ghost. The header keeps its
     *       prefetch flags; its access time becomes 0.</li>
     *   <li><b>Other buffers remain</b> (refcount above 1): the buffer leaves the header, which stays cached and
     *       held with one hold fewer, and moves to a new anonymous header ({@code arc_hdr_alloc}) holding it:
     *       {@code arc_buf_size} bytes move from the old state's size to anon's.</li>
     * </ul>
     * {@code arc_release} allocates and frees nothing: {@code arc_size}, the evictable sizes and the targets do not
     * change and the evictor is not woken. {@code arc_write} then drops the stale data a lone buffer's header still
     * has ({@link #writeStart}). Either way the pending write then costs its size once, as a {@link #write}'s does.
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
     * {@code arc_freed}: the block was freed on disk. An unreferenced header (cached or ghost) is destroyed; a
     * referenced one is left alone, as ZFS does; a pending write is discarded with its dirty buffer.
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
     * {@code arc_reduce_target_size}: the engine's rule ({@link #reduceTargetSizeImpl}).
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
     * One iteration of the evict zthr: {@code arc_evict_cb_check} ({@link #evictCheck}) and, if it says so,
     * {@code arc_evict_cb}.
     *
     * @return {@link Outcome#EVICTOR_RAN} or {@link Outcome#IDLE}
     */
    @Override
    public Outcome evictorStep() {
        if (!evictCheck()) {
            return afterOperation(Outcome.IDLE);
        }
        evictCb();
        return afterOperation(Outcome.EVICTOR_RAN);
    }

    /**
     * One iteration of the reap zthr: {@code arc_reap_cb_check}, which updates {@code arc_no_grow} from the memory
     * model, and, if it finds memory short, {@code arc_reap_cb}, which reduces the target by the engine's
     * {@link #reapToFree} when that is positive. The cache reaping and the 1 s delay of the callback are not
     * modelled, and memory is read once.
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
            long toFree = reapToFree(free);
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
     * @throws IllegalArgumentException if {@code ticks} is negative or would overflow the clock
     */
    @Override
    public Outcome tick(long ticks) {
        ArcArguments.requireTicks(ticks, now);
        now += ticks;
        return afterOperation(Outcome.TICKED);
    }

    /**
     * Sets the free memory of an {@link AdjustableMemory} model, for traces that script memory pressure.
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

    /** @return {@code arc_size}, exact */
    public long size() {
        return arcSize;
    }

    /** @return {@code arc_free_memory()}: what the memory model answers now */
    public long freeMemory() {
        return memory.freeMemory();
    }

    /** @param stat a statistic @return its current value */
    public long stat(ArcStat stat) {
        return stats[stat.ordinal()];
    }

    /**
     * The one part of the state that decides future behaviour and is not in a snapshot: the state of the generator
     * behind {@code multilist_get_random_index}, which picks the sublist where each eviction scan starts. A snapshot
     * leaves it out because it is not ZFS state a port could compare (a port draws its own random numbers). With the
     * snapshot and the memory model's free memory it determines every later outcome. Eviction markers and eviction
     * waiters exist only inside an operation, so no other internal state remains.
     *
     * @return the state of the sublist-start generator ({@link SplitMix64#state()})
     */
    public long sublistStartState() {
        return random.state();
    }

    // ---- what each engine does its own way ----

    /** @throws IllegalArgumentException unless the engine models buffers of this type */
    abstract void requireType(BufType type);

    /** @throws IllegalArgumentException if {@code uncached} is true and the engine's release has no uncached state */
    abstract void requireUncached(boolean uncached);

    /**
     * {@code arc_get_data_impl} for a header's data or a buffer's private copy: the engine's {@code arc_adapt},
     * then {@link #waitAndCount}, then whatever the engine does after.
     */
    abstract void getDataImpl(Header h, Set<HdrAllocFlag> flags);

    /** The flags {@code arc_buf_alloc_impl} allocates a buffer's private copy with. */
    abstract Set<HdrAllocFlag> copyFlags();

    /** {@code arc_write_ready}: the header's data, shared with the writer's buffer or a copy. */
    abstract void writeReady(Header h);

    /** {@code arc_write_done}'s {@code arc_access} of the header, just hashed. */
    abstract void writeDone(Header h);

    /** {@code arc_reduce_target_size} without its argument check. */
    abstract void reduceTargetSizeImpl(long toFree);

    /** @return {@code arc_reap_cb}'s {@code to_free} when memory is short ({@code free < 0}), s64 */
    abstract long reapToFree(long free);

    /** @return {@code arc_is_overflowing(use_reserve)} */
    abstract ArcArithmetic.Overflow overflowLevel(boolean useReserve);

    /** @return {@code arc_evict()}: one eviction pass; the live bytes it evicted */
    abstract long evict();

    /** {@code add_reference}'s 0 → 1 transition, beyond taking the header off its list. */
    void firstReference(Header h) {
    }

    /** @return {@code arc_evict_cb_check}: whether the evict zthr's iteration runs its callback */
    boolean evictCheck() {
        return evictNeeded;
    }

    /**
     * @return what {@code arc_evict_cb} evicts before it decides whether to go on, in bytes: one {@link #evict}
     *     pass
     */
    long evictCbEvicts() {
        return evict();
    }

    // ---- state accounting ----

    /** @return the index of a state's multilist and sizes of one buffer type */
    static int index(ArcState state, BufType type) {
        return state.ordinal() * TYPES + type.ordinal();
    }

    /** @return {@code arcs_size[type]} of a state */
    long size(ArcState state, BufType type) {
        return stateSize[index(state, type)];
    }

    /** @return {@code arcs_esize[type]} of a state */
    long evictableSize(ArcState state, BufType type) {
        return stateEsize[index(state, type)];
    }

    /** @return the waiters' {@code aew_count}s, head first */
    List<Long> waiterCounts() {
        List<Long> counts = new ArrayList<>();
        waiters.forEach(w -> counts.add(w.count));
        return counts;
    }

    /**
     * @return every header: anonymous ones by key, then for each listed state its lists (data, then metadata) from
     *     newest (head) to oldest (tail) per sublist, then its held headers by key
     */
    List<HeaderSnapshot> headerSnapshots() {
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
                for (BufType t : BufType.values()) {
                    lists[index(s, t)].collect(headers);
                }
                held.getOrDefault(s, new TreeMap<>()).values().forEach(h -> headers.add(h.snapshot()));
            }
        }
        return headers;
    }

    // ---- buffers, references and state changes ----

    /**
     * {@code arc_buf_alloc_impl}: a new buffer takes a reference, then shares the header's data if it is the
     * header's only buffer and that data is a linear ABD ({@code arc_can_share}; {@link Header#linearData} or a
     * size {@code abd_alloc} allocates linear), or else gets a private copy from
     * {@code arc_get_data_buf}, counted in {@code overhead_size}.
     */
    void allocateBuffer(Header h) {
        addReference(h);
        if (h.hasData && h.buffers() == 1 && !h.sharedData
                && (h.linearData || ArcArithmetic.linearAbd(tunables, h.size))) {
            h.sharedData = true;
        } else {
            getDataImpl(h, copyFlags());
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] += h.size;
        }
    }

    /**
     * {@code arc_buf_destroy}: {@code arc_buf_destroy_impl} frees a private copy; destroying the shared buffer
     * while others remain frees the header's data and shares the last remaining buffer instead, which costs the
     * same bytes and {@code overhead_size} as freeing a copy, so which buffer is destroyed does not matter; the last
     * shared buffer leaves its data to the header. Then {@code remove_reference}.
     */
    void destroyBuffer(Header h) {
        if (h.buffers() > (h.sharedData ? 1 : 0)) {
            returnData(h);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()] -= h.size;
        } else {
            h.sharedData = false;
        }
        removeReference(h);
    }

    /** {@code add_reference}: the 0 → 1 transition takes the header off its list. */
    void addReference(Header h) {
        if (h.refcount == 0 && h.state != ArcState.ANON) {
            int i = index(h.state, h.type);
            lists[i].remove(h.sublist, h);
            stateEsize[i] -= h.accountedSize();
            firstReference(h);
        }
        h.refcount++;
    }

    /**
     * {@code remove_reference}: the 1 → 0 transition puts the header at the head of its list (an anonymous one is
     * destroyed: it is no longer reachable); an uncached header that is not a prefetch is destroyed instead
     * ({@code arc_change_state(arc_anon)}, {@code arc_hdr_destroy}).
     */
    void removeReference(Header h) {
        if (--h.refcount != 0 || h.state == ArcState.ANON) {
            return;
        }
        if (h.state == ArcState.UNCACHED && !h.prefetch) {
            destroy(h); // never listed: changeState finds it off its list
            return;
        }
        int i = index(h.state, h.type);
        lists[i].insertHead(h);
        stateEsize[i] += h.accountedSize();
    }

    /**
     * {@code arc_write_ready}'s sharing branch ({@code arc_share_buf}): the writer's buffer's data becomes the
     * header's.
     */
    void shareWriterBuffer(Header h) {
        h.hasData = true;
        h.sharedData = true;
        countHeaderData(h.size);
        stats[ArcStat.OVERHEAD_SIZE.ordinal()] -= h.size;
    }

    /**
     * {@code arc_release}'s lone-buffer branch: {@code arc_change_state(arc_anon)} moves the held header (on no
     * list) and all its bytes from its state to anon and takes it out of the hash table; {@code b_arc_access = 0};
     * {@code buf_discard_identity}.
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
     * {@code arc_release} with other buffers remaining: the buffer leaves the header and moves to a new anonymous
     * one.
     *
     * @return the new anonymous header, under {@code newKey}
     */
    private Header releaseOneBuffer(Header h, long newKey, int sublist) {
        /*
         * remove_reference and one buffer fewer. Each hold is a buffer and another remains, so the header stays
         * referenced: off its list, its evictable size untouched. If the buffer leaving is the one sharing the
         * header's data, arc_unshare_buf and arc_share_buf pass the sharing to the last buffer left, moving no
         * bytes: arc_can_share holds for it, as blocks here are neither compressed, encrypted nor byteswapped.
         */
        h.refcount--;
        stateSize[index(h.state, h.type)] -= h.size; // arc_buf_size(buf) leaves the old state
        Header anon = new Header(newKey, h.size, sublist, h.type); // arc_hdr_alloc: anon, no flags, access 0
        anon.refcount = 1; // the buffer and its hold move to the new header, a private copy
        stateSize[index(ArcState.ANON, anon.type)] += anon.size;
        return anon;
    }

    /**
     * The start of {@code arc_write}: the anonymous header's data ({@code b_pabd}) is stale. If the writer's buffer
     * shares it, {@code arc_unshare_buf} leaves the bytes to the buffer, which becomes a private copy
     * ({@code overhead_size}); otherwise {@code arc_hdr_free_abd} frees it. Either way the header is left as
     * {@link #write} leaves one: no data of its own, one buffer with a private copy. Only the lone-buffer branch of
     * {@code arc_release} leaves data here: {@code arc_hdr_alloc} allocates none.
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

    /**
     * {@code arc_change_state}: moves a header and its accounting to another state. A header with no hold leaves
     * its old list only if it is on it ({@code multilist_link_active}, zfs-2.2.0): in 2.2.0 an uncached header
     * that lost its last hold is moved to anon before it was ever listed; in 2.1.1, which removes unconditionally,
     * a header with no hold in a listed state is always on its list, so the test changes nothing there.
     */
    void changeState(Header h, ArcState to) {
        int from = index(h.state, h.type);
        long oldSize = h.accountedSize();
        if (h.refcount == 0 && h.state.hasList() && h.linked) {
            lists[from].remove(h.sublist, h);
            stateEsize[from] -= oldSize;
        }
        stateSize[from] -= oldSize;
        h.state = to;
        int into = index(to, h.type);
        long newSize = h.accountedSize();
        stateSize[into] += newSize;
        if (h.refcount == 0 && to.hasList()) {
            lists[into].insertHead(h);
            stateEsize[into] += newSize;
        }
    }

    /** {@code arc_change_state(arc_anon)} and {@code arc_hdr_destroy}. */
    void destroy(Header h) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h.key);
        if (h.hasData) {
            freeData(h);
        }
    }

    // ---- allocation (arc_get_data_impl) ----

    /**
     * {@code arc_hdr_alloc_abd}: the header's data, through {@code arc_get_data_impl}, counted in
     * {@code compressed_size} and {@code uncompressed_size}; linear whatever its size with
     * {@link HdrAllocFlag#ARC_HDR_ALLOC_LINEAR}.
     */
    void allocateHeaderData(Header h, Set<HdrAllocFlag> flags) {
        getDataImpl(h, flags);
        h.hasData = true;
        h.linearData = flags.contains(HdrAllocFlag.ARC_HDR_ALLOC_LINEAR);
        countHeaderData(h.size);
    }

    /** {@code compressed_size} and {@code uncompressed_size} move together: nothing is compressed. */
    private void countHeaderData(long delta) {
        stats[ArcStat.COMPRESSED_SIZE.ordinal()] += delta;
        stats[ArcStat.UNCOMPRESSED_SIZE.ordinal()] += delta;
    }

    /**
     * The part of {@code arc_get_data_impl} both engines share: {@code arc_wait_for_eviction} (holding the
     * header's hash lock if it is hashed), then {@code arc_space_consume} and the header's state's size (unless a
     * ghost), evictable if the header is on its list.
     */
    void waitAndCount(Header h, Set<HdrAllocFlag> flags) {
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
            int i = index(h.state, h.type);
            stateSize[i] += h.size;
            if (h.linked) {
                stateEsize[i] += h.size;
            }
        }
    }

    /** {@code arc_hdr_free_abd}: frees a header's data ({@code b_pabd}). */
    private void freeData(Header h) {
        returnData(h);
        h.hasData = false;
        h.linearData = false;
        countHeaderData(-h.size);
    }

    /** {@code arc_free_data_impl}: returns one block's worth of data of a header to the system. */
    private void returnData(Header h) {
        int i = index(h.state, h.type);
        if (h.linked) {
            stateEsize[i] -= h.size;
        }
        stateSize[i] -= h.size;
        arcSize -= h.size;
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
     * {@code arc_wait_for_eviction(amount, use_reserve)}: SOME wakes the evictor; SEVERE queues a waiter for
     * {@code MAX(last, arc_evict_count) + amount} and blocks until it is released, here by running the evict zthr
     * inline.
     */
    private void waitForEviction(long amount, boolean useReserve) {
        switch (overflowLevel(useReserve)) {
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
                    if (!evictCheck()) {
                        throw LostWakeup.violation(waiter.count);
                    }
                    evictCb();
                }
            }
        }
    }

    /** {@code arc_set_need_free}. */
    private void setNeedFree() {
        needFree = ArcArithmetic.needFree(memory.freeMemory(), config.sysFree(), !waiters.isEmpty(),
                waiters.isEmpty() ? 0 : waiters.peekLast().count, evictCount);
    }

    // ---- the evict zthr ----

    /** {@code arc_evict_cb}: the engine's eviction ({@link #evictCbEvicts}), then decides whether to go on. */
    private void evictCb() {
        bump(ArcStat.EVICTOR_RUNS);
        long evicted = evictCbEvicts();
        evictNeeded = evicted != 0 && Long.compareUnsigned(arcSize, arcC) > 0;
        if (!evictNeeded) {
            waiters.clear();
            setNeedFree();
        }
    }

    /**
     * {@code arc_evict_impl}: asks {@code arc_evict_state} for {@link ArcArithmetic#evictImplBytes} of the
     * state's list of one type; a non-positive (s64) request means skip.
     *
     * @return the bytes evicted
     */
    long evictImpl(ArcState state, BufType type, long request) {
        long bytes = ArcArithmetic.evictImplBytes(request, evictableSize(state, type));
        return bytes == 0 ? 0 : evictState(lists[index(state, type)], bytes);
    }

    /**
     * {@code arc_flush_state(state, 0, type, B_FALSE)}: one {@code arc_evict_state} pass for
     * {@link ArcArithmetic#ARC_EVICT_ALL} bytes if the state has evictable bytes of the type.
     *
     * @return the bytes evicted
     */
    long flushState(ArcState state, BufType type) {
        return evictableSize(state, type) == 0 ? 0 : evictState(lists[index(state, type)], ArcArithmetic.ARC_EVICT_ALL);
    }

    /**
     * {@code arc_evict_state}: markers at the tail of every sublist, then the scans of
     * {@link ArcArithmetic#evictState}.
     */
    private long evictState(Multilist ml, long bytes) {
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
     * {@code zfs_arc_evict_batch_limit} headers; then advances {@code arc_evict_count} and releases the waiters
     * whose count it reached, unless free memory is below {@code arc_sys_free / 2}.
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
     * {@code arc_evict_hdr}: a ghost header is destroyed (its logical size counts as evicted, but nothing real, as
     * header memory is not modelled); a cached one loses its data and moves to its ghost state (an uncached one is
     * destroyed), unless it is a prefetch younger than its minimum lifetime.
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
        if (h.state == ArcState.UNCACHED) {
            destroy(h);
        } else {
            changeState(h, ArcArithmetic.ghostOf(h.state));
        }
        bump(ArcStat.EVICTIONS);
        stats[ArcStat.EVICTED_BYTES.ordinal()] += size;
        return size;
    }

    /** The {@code arc__evict} and {@code arc__delete} probes: {@code h} is about to be evicted from its state. */
    private void report(Header h) {
        if (evictionProbe != NO_PROBE) {
            evictionProbe.accept(new Eviction(h.key, h.size, h.state, h.type));
        }
    }

    /** Runs the evict zthr to quiescence if so configured; every public operation ends here. */
    Outcome afterOperation(Outcome outcome) {
        if (config.evictorRunsAfterEachOperation()) {
            while (evictCheck()) {
                evictCb();
            }
        }
        return outcome;
    }

    /** {@code arc_available_memory()}: {@code arc_free_memory() - arc_sys_free}. */
    long availableMemory() {
        return memory.freeMemory() - config.sysFree();
    }

    void bump(ArcStat stat) {
        stats[stat.ordinal()]++;
    }

    /** @return the set of no flags */
    static Set<HdrAllocFlag> noFlags() {
        return EnumSet.noneOf(HdrAllocFlag.class);
    }
}
