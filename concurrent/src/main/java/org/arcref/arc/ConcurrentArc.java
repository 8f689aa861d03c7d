package org.arcref.arc;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumView;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcArguments;
import org.arcref.zfs.ArcArithmetic;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.ArcStats;
import org.arcref.zfs.BufHash;
import org.arcref.zfs.HdrAllocFlag;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.StateSnapshot;
import org.arcref.zfs.Tunables;
import org.arcref.zfs.Validate;

/**
 * A thread-safe Adaptive Replacement Cache with the policy of OpenZFS zfs-2.1.1, built as ZFS builds it, holding
 * values: the concurrent counterpart of the sequential spec {@code org.arcref.zfs.ZfsArc}, with the same
 * operations, outcomes, argument rules, quirk switches ({@link QuirkFix}) and {@link ArcSnapshot}.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Per key, linearizable.</b> Every operation on a key ({@link #read}, {@link #write},
 *       {@link #completeWrite}, {@link #release}, {@link #overwrite}, {@link #free}, {@link #lookup}) runs under
 *       the key's hash lock ({@link #overwrite} under both its keys'), so the operations on one key are
 *       linearizable, and a read returns the value last cached for that key
 *       (written by {@link #completeWrite} or loaded on the miss that cached it), never another key's value
 *       (N1). A miss calls the loader once, under the hash lock: concurrent readers of the key wait and hit.</li>
 *   <li><b>Holds.</b> A held buffer (a demand read or a write completion with {@code hold}, a pending write) is
 *       never evicted until released.</li>
 *   <li><b>Accounting (N1).</b> When no operation is in flight, {@code arc_size} (exact value) equals the sum of
 *       the sizes of anon, MRU and MFU, which equals the bytes of data held by the headers; and each state's
 *       size and evictable size equal the sums over its headers (R4).</li>
 *   <li><b>Eviction progress (L1).</b> An allocation that finds the cache severely over its target waits for
 *       the evictor; it returns once the evictor has evicted enough, or evicted nothing, or eviction is no longer
 *       needed, or the cache {@linkplain #close() closed}. No waiter waits for ever.</li>
 *   <li><b>Approximate.</b> In the default mode {@code arc_c}, {@code arc_p} and the state sizes are each exact
 *       atomics but are not updated together (as in ZFS, where they are updated by separate atomics or racy
 *       stores), the hot-path reads of {@code arc_size} are aggsum bounds, and {@link #snapshot()} reads every
 *       part at a different moment: it is consistent only when no operation is in flight. Statistics are
 *       counters that may lag by the operations in flight.</li>
 *   <li><b>Deterministic mode</b> ({@link ArcOptions#deterministic()}, property D1): the aggsum is exact and the
 *       evictor runs on the calling thread exactly as in the spec ({@link #evictorStep()}, after each operation
 *       if {@link ArcConfig#evictorRunsAfterEachOperation()}, and inline for a waiter), with the same
 *       {@link SplitMix64} sequence and sublist function: driven by one thread it returns the spec's outcomes
 *       and snapshots. It is still thread-safe.</li>
 *   <li>Bad input throws {@link IllegalArgumentException} with the spec's message and leaves the state
 *       unchanged; after {@link #close()} every operation (each method above that changes or looks up a block, and
 *       {@link #reduceTargetSize}, {@link #evictorStep}, {@link #awaitEvictorIdle}, {@link #reapStep}, {@link #tick},
 *       {@link #setFreeMemory}) throws {@link IllegalStateException}; the readouts ({@link #snapshot()},
 *       {@link #stat}, {@link #targetSize()} and the like) still read the final state.</li>
 *   <li><b>Failures.</b> An operation whose allocation throws leaves no trace of its block: no header hashed or
 *       pending, no value, no bytes counted, no hold; a ghost hit goes back to its ghost state (at the head of the
 *       ghost list); a hit whose buffer could not be allocated gives its reference back (an unreferenced header
 *       goes back to the head of its list); a write that could not complete stays pending. What stays, as in ZFS: the
 *       adaptation of {@code arc_c} and {@code arc_p} that preceded the failed wait, the statistics, and, where a
 *       miss fails on its buffer's private copy after its header data was allocated, what that first allocation
 *       did (its {@code arc_p} growth, the eviction its wait caused). If the evict zthr dies of an {@link Error},
 *       every waiting allocation, every later one
 *       and {@link #awaitEvictorIdle()} throw {@link IllegalStateException} naming the death, with the Error as
 *       its cause; operations that allocate nothing still work.</li>
 * </ul>
 *
 * @param <V> the type of the cached values
 */
public final class ConcurrentArc<V> implements AutoCloseable {

    /*
     * Implementation overview (names are those of arc.c).
     *
     * Data. Headers (ArcHeader) of hashed blocks are in the buf_hash_table (BufHashTable) and pending writes
     * (anonymous, unhashed in ZFS) in pendingWrites, both keyed by block identity and guarded per key by the
     * striped hash lock HDR_LOCK. Each listed state has a multilist (ConcurrentMultilist) of its unreferenced
     * headers: max(cores, 4) sublists by default (ArcConfig#sublists), each with its own lock. arc_size is an
     * AggSum; arcs_size and arcs_esize are AtomicLongs, exact at every moment (ZFS uses zfs_refcount_t, an
     * atomic counter): they are read on every allocation (arc_p growth) and every eviction target, where
     * LongAdder's sum() would cost a walk over its cells for no gain at this update rate. arc_c and arc_p are
     * AtomicLongs: every arc_p update and arc_adapt's growth of arc_c are atomic read-modify-writes (ZFS's plain
     * stores can lose them); arc_reduce_target_size sets arc_c outright from the value it read, so a growth racing
     * it may be overwritten, as in ZFS; the pair (arc_c, arc_p) is never updated together.
     * arc_evict_count, arc_evict_needed, arc_need_free and the waiter list are in EvictWaiters under
     * arc_evict_lock.
     *
     * Locks and their order (R10):
     *   hash lock -> hash lock           only in overwrite, which holds its two keys' locks, lower stripe first;
     *   hash lock -> sublist lock        every state change: the hash lock's owner links/unlinks its header;
     *   sublist lock -> hash lock        only by tryLock, in eviction (a miss counts mutex_miss);
     *   active sublist -> ghost sublist  eviction moves a header to its ghost list while scanning;
     *   arc_evict_lock -> zthr state lock  EvictWaiters wakes the zthr with arc_evict_lock held;
     *   arc_evict_lock -> aggsum core lock  arc_evict_cb's aggsum_compare under arc_evict_lock.
     * The evict zthr's check reads arc_evict_needed (volatile) without arc_evict_lock. A thread may wait for
     * eviction while holding its header's hash lock (ZFS does so on the ghost-hit path): the evictor never
     * blocks on a hash lock, so it still progresses, and it never waits for a caller.
     *
     * Who wakes whom. An allocation (arc_get_data_impl) that finds arc_size's lower bound SOME over the target
     * sets arc_evict_needed and wakes the zthr without the lock; SEVERE queues a waiter with count
     * MAX(last, arc_evict_count) + amount, which also sets arc_evict_needed and wakes the zthr, then sleeps. The
     * zthr evicts (arc_evict) and, after each sublist visit, adds the evicted bytes to arc_evict_count and
     * releases the waiters whose count was reached (if free memory allows); after each pass it recomputes
     * arc_evict_needed with the exact compare and, if false, releases every waiter. arc_reduce_target_size sets
     * arc_evict_needed under arc_evict_lock and wakes the zthr. close() cancels the zthr, whose last pass sees the
     * cancel, then releases any waiter left; from then on nothing sets arc_evict_needed (EvictWaiters). An Error
     * in arc_evict_cb ends the zthr: Evictor records it and shuts the waiter queue down as close() does, and
     * allocations then fail (Evictor#requireAlive). A header's data is allocated before the block becomes visible
     * (hashed, pending), so a failure there leaves nothing to undo but a ghost hit's state change (ghostHit). A
     * buffer's private copy is allocated, as in the spec, after the buffer took its reference (so that the header
     * is off its list while the allocation waits); a failure there gives the reference back and undoes the read
     * that made the header (readBuffer).
     *
     * Buffers. Each hold is one buffer (arc_buf_t). A buffer shares its header's data only if that data is a linear
     * ABD (ArcArithmetic#linearAbd) and no other buffer exists (arc_can_share); otherwise it has a private copy,
     * counted in arcs_size, arc_size and overhead_size (ArcHeader#accountedSize).
     *
     * Policy. The arithmetic (arc_adapt, arc_is_overflowing, the arc_evict targets, arc_reduce_target_size, the
     * reaper's to_free, the arc_p growth predicate, arc_access's transition, the quirk switches) is the spec's own,
     * org.arcref.zfs.ArcArithmetic: this class reads its inputs from the atomics and the aggsum, calls it, and
     * stores the results with the atomic updates described above. Which of the aggsum's four reads each arc_size
     * site makes is SizeReads' (zfs-2.1.1's at every site; the exact compare for arc_p growth where ArcOptions asks
     * for it); tests plant another read at one site through it.
     *
     * Deterministic mode replaces the zthr by Evictor's stepping and the aggsum by an exact one; the policy code
     * is the same in both modes.
     *
     * Two copies, on purpose. The buffer state machine (hit, readDone, addReference, destroyBuffer, writeStart,
     * writeReady, access, destroy, allocateHeaderData, getDataImpl, evictStateImpl, afterOperation, setFreeMemory,
     * and ArcHeader's fields) is the spec's (org.arcref.zfs.ZfsArc, the zfs-2.1.1 engine, with what it shares with
     * zfs-2.2.0's in org.arcref.zfs.SequentialArc, and their Header) maintained by copy, paste and
     * adapt, as Striped64 keeps its accumulate methods: here each step sits between the hash lock, the sublist locks
     * and the atomics that make it safe, there it reads as a plain transcription of arc.c that a porter follows line
     * by line. One shared unit would have to abstract over locking and atomics (reference/ cannot see this module),
     * which would cost the spec that readability. The arithmetic is not copied (ArcArithmetic); the copies are kept
     * equal by D1, which runs this class in deterministic mode beside the spec and compares the whole snapshot after
     * every operation (DifferentialD1Properties, X1), so a change made to one copy only fails the default build.
     */

    private final ArcConfig config;
    private final Tunables tunables;
    private final MemoryModel memory;
    private final ArcOptions options;
    private final BufHashTable<V> hashTable;
    private final ConcurrentHashMap<Long, ArcHeader<V>> pendingWrites = new ConcurrentHashMap<>();
    private final ConcurrentMultilist[] lists = new ConcurrentMultilist[ArcState.values().length];
    private final AtomicLong[] stateSize = new AtomicLong[ArcState.values().length];
    private final AtomicLong[] stateEsize = new AtomicLong[ArcState.values().length];
    private final SizeUpdate sizeUpdate;
    private final LongAdder[] stats = new LongAdder[ArcStat.values().length];
    private final AggSum arcSize;
    /** Which aggsum read each {@code arc_size} site makes: 2.1.1's, or in tests one planted at a site. */
    private final SizeReads sizeReads;
    private final AtomicLong arcC;
    private final AtomicLong arcP;
    private final AtomicLong now = new AtomicLong();
    private final EvictWaiters waiters;
    private final WaitTimes evictionWaitTimes = new WaitTimes();
    private final Evictor evictor;
    /** {@code multilist_get_random_index}; used only by the evictor, whose iterations are serialised. */
    private final SplitMix64 random;
    /** Serialises the reap zthr's iterations ({@link #reapStep()}). */
    private final ReentrantLock reapLock = new ReentrantLock();
    private volatile boolean noGrow;
    private volatile boolean warm;
    private volatile long growTime;
    private volatile boolean closed;

    /**
     * Creates an empty ARC as {@code arc_init} leaves it ({@code arc_c = arc_c_min}, {@code arc_p = arc_c >> 1})
     * and, unless stepped, starts the evict zthr.
     *
     * @param config the policy's configuration; {@link ArcConfig#sublists()} is the sublist count (see
     *     {@link #defaultSublists()})
     * @param memory the memory model ({@code arc_free_memory()}); must be safe to read from any thread
     * @param options the mode
     * @throws IllegalArgumentException if an argument is null
     */
    public ConcurrentArc(ArcConfig config, MemoryModel memory, ArcOptions options) {
        this(config, memory, options, EvictWaiters::new, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    /** @return the {@code arc_size} aggsum the options ask for: exact, or per-CPU with this machine's layout */
    static AggSum newSizeAggsum(ArcOptions options) {
        return options.exactSize() ? AggSum.exact(0) : AggSum.create(0);
    }

    /** Creates {@code arc_evict_lock}'s waiter queue; a seam through which tests build broken variants. */
    interface WaitersFactory {
        EvictWaiters create(MemoryModel memory, long sysFree, Runnable wakeEvictor);
    }

    /** Adds to a state's {@code arcs_size} or {@code arcs_esize}; a seam through which tests break its atomicity. */
    interface SizeUpdate {
        void add(AtomicLong stateCounter, long delta);
    }

    /**
     * The seams through which tests build broken variants: {@code waitersFactory} creates the waiter queue;
     * {@code sizeUpdate} makes every update of a state's sizes ({@code AtomicLong::addAndGet} in production);
     * {@code sizeAggsum} creates {@code arc_size} for the options.
     */
    ConcurrentArc(ArcConfig config, MemoryModel memory, ArcOptions options, WaitersFactory waitersFactory,
            SizeUpdate sizeUpdate, Function<ArcOptions, AggSum> sizeAggsum) {
        this(config, memory, options, waitersFactory, sizeUpdate, sizeAggsum, SizeReads.of(options));
    }

    /**
     * As the seams above, and {@code sizeReads}: the aggsum read each {@code arc_size} site makes
     * ({@link SizeReads#of} in production), through which tests plant another read at one site.
     */
    ConcurrentArc(ArcConfig config, MemoryModel memory, ArcOptions options, WaitersFactory waitersFactory,
            SizeUpdate sizeUpdate, Function<ArcOptions, AggSum> sizeAggsum, SizeReads sizeReads) {
        this.sizeReads = sizeReads;
        this.config = Validate.notNull("config", config);
        this.memory = Validate.notNull("memory", memory);
        this.options = Validate.notNull("options", options);
        this.sizeUpdate = sizeUpdate;
        this.tunables = config.tunables();
        this.hashTable = new BufHashTable<>(options.hashLocks(), config.cMax());
        for (ArcState s : ArcState.values()) {
            stateSize[s.ordinal()] = new AtomicLong();
            stateEsize[s.ordinal()] = new AtomicLong();
            if (s.hasList()) {
                lists[s.ordinal()] = new ConcurrentMultilist(config.sublists());
            }
        }
        for (ArcStat s : ArcStat.values()) {
            stats[s.ordinal()] = new LongAdder();
        }
        this.arcSize = sizeAggsum.apply(options);
        this.arcC = new AtomicLong(config.cMin());
        this.arcP = new AtomicLong(config.cMin() >>> 1);
        this.random = new SplitMix64(config.seed());
        Evictor.Callbacks callbacks = new Evictor.Callbacks() {
            @Override
            public boolean check() {
                return waiters.evictNeeded();
            }

            @Override
            public void run(BooleanSupplier cancelled) {
                evictCb(cancelled);
            }

            @Override
            public void died(Error cause) {
                waiters.shutdown();
            }
        };
        this.waiters = waitersFactory.create(memory, config.sysFree(), this::wakeEvictor);
        this.evictor = options.evictor() instanceof EvictorMode.Zthr zthr
                ? Evictor.threaded(callbacks, zthr.priority()) : Evictor.stepped(callbacks);
    }

    /** @return ZFS's default sublist count, {@code MAX(boot_ncpus, 4)}, for {@link ArcConfig#withSublists} */
    public static int defaultSublists() {
        return Math.max(Runtime.getRuntime().availableProcessors(), 4);
    }

    /** @return the configuration */
    public ArcConfig config() {
        return config;
    }

    /** @return the options */
    public ArcOptions options() {
        return options;
    }

    /**
     * @return how long allocations waited for eviction ({@code arc_wait_for_eviction}'s sleep, one record per
     *     {@code evict_waits}; in deterministic mode, the inline eviction), live
     */
    public WaitTimes evictionWaitTimes() {
        return evictionWaitTimes;
    }

    /**
     * {@code arc_read} followed, on a miss, by {@code arc_read_done}, as the spec's {@code ZfsArc#read}: a hit
     * returns the cached value; a ghost hit or a miss calls {@code loader} (the disk read) once, under the key's
     * hash lock, before changing any state, and caches its value. A demand read with {@code hold} keeps the
     * buffer unevictable until {@link #release}.
     *
     * @param key the block identity
     * @param size the block's logical size: a multiple of 512 in [512, maxBlockSize], the cached size if cached
     * @param kind demand or prefetch
     * @param hold whether a demand read keeps its reference
     * @param loader loads the value of {@code key} on a miss; must not return null, and must not call this ARC
     *     (it runs under the key's hash lock)
     * @return the outcome and the value
     * @throws IllegalArgumentException for a bad size, a prefetch with {@code hold}, a size that differs from the
     *     cached one, a key with a pending write, or a null kind or loader
     * @throws IllegalStateException if the loader returns null, the cache is closed or the evict zthr died (the
     *     state of the block is unchanged)
     */
    public ReadResult<V> read(long key, long size, ReadKind kind, boolean hold, LongFunction<? extends V> loader) {
        ArcArguments.requireBlockSize(size, config);
        ArcArguments.requireHoldAllowed(kind, hold);
        Validate.notNull("loader", loader);
        requireOpen();
        long hash = BufHash.of(key);
        ReadResult<V> result = underHashLockOf(hash, () -> readLocked(key, hash, size, kind, hold, loader));
        afterOperation(result.outcome());
        return result;
    }

    /** The body of {@link #read}, under {@code key}'s hash lock; {@code hash} is its {@link BufHash#of}. */
    private ReadResult<V> readLocked(long key, long hash, long size, ReadKind kind, boolean hold,
            LongFunction<? extends V> loader) {
        ArcHeader<V> h = hashTable.get(key, hash);
        if (h == null) {
            // a hashed key is never pending (write, overwrite and read keep the two apart)
            ArcArguments.requireNotPending("key", key, pendingWrites.containsKey(key));
        } else {
            ArcArguments.requireCachedSize(key, h.size, size);
        }
        Outcome outcome;
        if (h != null && !h.state.isGhost()) {
            outcome = hit(h, kind);
        } else {
            V loaded = load(key, loader);
            GhostState ghost = null;
            if (h == null) {
                h = new ArcHeader<>(key, size, ArcArithmetic.sublistOf(key, config.sublists()));
                hashTable.put(h); // buf_hash_insert, then arc_hdr_alloc_abd under the hash lock
                try {
                    allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT));
                } catch (RuntimeException | Error e) {
                    hashTable.remove(h);
                    throw e;
                }
                outcome = Outcome.MISS;
            } else {
                outcome = h.state == ArcState.MRU_GHOST ? Outcome.GHOST_HIT_MRU : Outcome.GHOST_HIT_MFU;
                ghost = ghostHit(h);
            }
            h.value = loaded;
            readDone(h, kind, ghost);
        }
        if (kind == ReadKind.DEMAND && !hold) {
            destroyBuffer(h);
        }
        return new ReadResult<>(outcome, h.value);
    }

    /**
     * A write of a new block ({@code arc_alloc_buf}): an anonymous (dirty) buffer holding {@code value}, held by
     * the writer, allocated with adaptation; it becomes cached on {@link #completeWrite}.
     *
     * @param key the identity the block will have once written: not cached, not a ghost, not pending
     * @param size the logical size: a multiple of 512 in [512, maxBlockSize]
     * @param value the block's contents, not null
     * @return {@link Outcome#WRITTEN}
     * @throws IllegalArgumentException for a bad size, a key that is not new, or a null value
     * @throws IllegalStateException if the cache is closed or the evict zthr died (no pending write is left)
     */
    public Outcome write(long key, long size, V value) {
        ArcArguments.requireBlockSize(size, config);
        Validate.notNull("value", value);
        requireOpen();
        return afterOperation(underHashLock(key, () -> {
            ArcHeader<V> existing = hashTable.get(key);
            ArcArguments.requireNewKey("key", key, pendingWrites.containsKey(key),
                    existing == null ? null : existing.state);
            ArcHeader<V> h = new ArcHeader<>(key, size, ArcArithmetic.sublistOf(key, config.sublists()));
            allocateBuffer(h);
            h.value = value;
            pendingWrites.put(key, h);
            return Outcome.WRITTEN;
        }));
    }

    /**
     * {@code arc_write_ready} and {@code arc_write_done}: the pending write of {@code key} reached disk; its header
     * gets its data (its own allocation with {@code zfs_abd_scatter_enabled}, else the writer's buffer, shared), is
     * hashed and moved to MRU ({@code arc_access}), and the writer's buffer is destroyed unless {@code hold}.
     *
     * @param key a key with a pending write
     * @param hold whether the writer keeps its reference
     * @return {@link Outcome#WRITE_COMPLETED}
     * @throws IllegalArgumentException if the key has no pending write
     * @throws IllegalStateException if the cache is closed or the evict zthr died (the write stays pending)
     */
    public Outcome completeWrite(long key, boolean hold) {
        requireOpen();
        return afterOperation(underHashLock(key, () -> {
            ArcHeader<V> h = pendingWrites.get(key);
            ArcArguments.requirePending(key, h != null);
            writeReady(h);
            pendingWrites.remove(key);
            hashTable.put(h);
            access(h);
            if (!hold) {
                destroyBuffer(h);
            }
            return Outcome.WRITE_COMPLETED;
        }));
    }

    /**
     * Releases one hold on a cached block ({@code arc_buf_destroy}, {@code remove_reference}).
     *
     * @param key a key whose cached header is held
     * @return {@link Outcome#RELEASED}
     * @throws IllegalArgumentException if the key is not cached with a hold
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome release(long key) {
        requireOpen();
        return afterOperation(underHashLock(key, () -> {
            ArcHeader<V> h = hashTable.get(key);
            ArcArguments.requireHeld(key, h == null ? null : h.state, h == null ? 0 : h.refcount);
            destroyBuffer(h);
            return Outcome.RELEASED;
        }));
    }

    /**
     * A cached block overwritten while one of its buffers is held, as the spec's {@code ZfsArc#overwrite}:
     * {@code arc_release} of that buffer, then the start of {@code arc_write}, leaving a pending write of
     * {@code value} under {@code newKey}, which {@link #completeWrite} or {@link #free} finish. If the buffer was
     * the block's only one, the header itself becomes the pending write and {@code key} is no longer cached; else
     * a new anonymous header takes the buffer and {@code key} stays cached, with its value, one hold fewer.
     * Nothing is allocated: this never waits for eviction; a lone buffer's stale unshared data is freed. Runs under
     * the hash locks of both keys.
     *
     * @param key a key whose cached header is held
     * @param newKey the identity the rewritten block will have: not cached, not a ghost, not pending
     * @param value the rewritten block's contents, not null
     * @return {@link Outcome#OVERWRITTEN}
     * @throws IllegalArgumentException if {@code key} is not cached with a hold, {@code newKey} is not new, or
     *     {@code value} is null
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome overwrite(long key, long newKey, V value) {
        Validate.notNull("value", value);
        requireOpen();
        return afterOperation(underHashLocks(key, newKey, () -> {
            ArcHeader<V> h = hashTable.get(key);
            ArcArguments.requireHeld(key, h == null ? null : h.state, h == null ? 0 : h.refcount);
            ArcHeader<V> existing = hashTable.get(newKey);
            ArcArguments.requireNewKey("newKey", newKey, pendingWrites.containsKey(newKey),
                    existing == null ? null : existing.state);
            int sublist = ArcArithmetic.sublistOf(newKey, config.sublists());
            ArcHeader<V> anon = h.refcount == 1 ? releaseLoneBuffer(h, newKey, sublist)
                    : releaseOneBuffer(h, newKey, sublist);
            writeStart(anon);
            anon.value = value;
            pendingWrites.put(newKey, anon);
            return Outcome.OVERWRITTEN;
        }));
    }

    /**
     * {@code arc_freed}: the block was freed on disk. An unreferenced header (cached or ghost) is destroyed, a
     * referenced one left alone, a pending write discarded.
     *
     * @param key the block identity
     * @return {@link Outcome#FREED}, {@link Outcome#FREE_SKIPPED_HELD} or {@link Outcome#NOT_CACHED}
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome free(long key) {
        requireOpen();
        return afterOperation(underHashLock(key, () -> {
            ArcHeader<V> pending = pendingWrites.remove(key);
            ArcHeader<V> h = hashTable.get(key);
            if (pending != null) {
                destroyBuffer(pending);
                pending.value = null;
                return Outcome.FREED;
            } else if (h == null) {
                return Outcome.NOT_CACHED;
            } else if (h.refcount > 0) {
                return Outcome.FREE_SKIPPED_HELD;
            }
            destroy(h);
            return Outcome.FREED;
        }));
    }

    /**
     * Looks a block up without accessing it (no state change, no statistics).
     *
     * @param key the block identity
     * @return the cached value (MRU or MFU), or null if the key is not cached with data
     * @throws IllegalStateException if the cache is closed
     */
    public V lookup(long key) {
        requireOpen();
        return underHashLock(key, () -> {
            ArcHeader<V> h = hashTable.get(key);
            return h == null || h.state.isGhost() ? null : h.value;
        });
    }

    /**
     * {@code arc_reduce_target_size}: lowers {@code arc_c} by {@code toFree} from the smaller of {@code arc_c} and
     * the exact size, never below {@code arc_c_min}, and wakes the evictor if the size is above the new target.
     *
     * @param toFree bytes to take off the target, at least 0
     * @return {@link Outcome#TARGET_REDUCED}
     * @throws IllegalArgumentException if {@code toFree} is negative
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome reduceTargetSize(long toFree) {
        ArcArguments.requireToFree(toFree);
        requireOpen();
        reduceTargetSizeImpl(toFree);
        return afterOperation(Outcome.TARGET_REDUCED);
    }

    /**
     * Deterministic mode: one iteration of the evict zthr on the calling thread ({@code arc_evict_cb_check} and,
     * if it says so, {@code arc_evict_cb}).
     *
     * @return {@link Outcome#EVICTOR_RAN} or {@link Outcome#IDLE}
     * @throws IllegalStateException if the evictor is a zthr (it runs by itself) or the cache is closed
     */
    public Outcome evictorStep() {
        if (!evictor.isStepped()) {
            throw new IllegalStateException("evictorStep needs a stepped evictor (EvictorMode.STEPPED); this ARC's "
                    + "evictor runs by itself: " + options.evictor());
        }
        requireOpen();
        return afterOperation(evictor.step() ? Outcome.EVICTOR_RAN : Outcome.IDLE);
    }

    /**
     * Waits until the evict zthr is idle: calls {@code zthr_wait_cycle_done(arc_evict_zthr)} (wake it, wait for the
     * iteration in progress) until an iteration ends with {@code arc_evict_needed} FALSE. A single reader that
     * calls it after each request keeps the zthr in lock step with it, as the spec's evictor is, without taking
     * over the zthr's work (property D2 in the default mode). With other threads running it only means that the
     * zthr was idle at some moment during the call.
     *
     * @throws IllegalStateException if the evictor is stepped (use {@link #evictorStep()}), the cache is closed,
     *     or the evict zthr died (the Error is the cause)
     */
    public void awaitEvictorIdle() {
        if (evictor.isStepped()) {
            throw new IllegalStateException("awaitEvictorIdle needs an evict zthr (EvictorMode.zthr); this ARC's "
                    + "evictor is stepped: use evictorStep");
        }
        requireOpen();
        do {
            evictor.awaitCycle();
            evictor.requireAlive();
        } while (waiters.evictNeeded());
    }

    /**
     * One iteration of the reap zthr ({@code arc_reap_cb_check} and, if memory is short, {@code arc_reap_cb}), as
     * in the spec; iterations are serialised.
     *
     * @return {@link Outcome#REAPED} or {@link Outcome#IDLE}
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome reapStep() {
        requireOpen();
        Outcome outcome;
        reapLock.lock();
        try {
            outcome = reapImpl();
        } finally {
            reapLock.unlock();
        }
        return afterOperation(outcome);
    }

    /**
     * Advances the logical clock ({@code ddi_get_lbolt()}).
     *
     * @param ticks how far, at least 0
     * @return {@link Outcome#TICKED}
     * @throws IllegalArgumentException if {@code ticks} is negative or would overflow the clock
     * @throws IllegalStateException if the cache is closed
     */
    public Outcome tick(long ticks) {
        requireOpen();
        now.getAndUpdate(t -> {
            ArcArguments.requireTicks(ticks, t);
            return t + ticks;
        });
        return afterOperation(Outcome.TICKED);
    }

    /**
     * Sets the free memory of an {@link AdjustableMemory} model.
     *
     * @param bytes the free memory, at least 0
     * @return {@link Outcome#MEMORY_SET}
     * @throws IllegalStateException if the memory model is not adjustable or the cache is closed
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public Outcome setFreeMemory(long bytes) {
        requireOpen();
        if (!(memory instanceof AdjustableMemory adjustable)) {
            throw new IllegalStateException("memory model must be an AdjustableMemory to set free memory, was "
                    + memory.getClass().getName());
        }
        adjustable.set(bytes);
        return afterOperation(Outcome.MEMORY_SET);
    }

    /** @return {@code arc_c} */
    public long targetSize() {
        return arcC.get();
    }

    /** @return {@code arc_p} */
    public long mruTarget() {
        return arcP.get();
    }

    /** @return a read-only view of the {@code arc_size} aggsum: its bounds, value and counters */
    public AggSumView sizeAggsum() {
        return arcSize.view();
    }

    /** @param state a state @return its {@code arcs_size} */
    public long stateSize(ArcState state) {
        return stateSize[state.ordinal()].get();
    }

    /** @param stat a statistic @return its current value */
    public long stat(ArcStat stat) {
        return stats[stat.ordinal()].sum();
    }

    /**
     * The nodes linked on a state's eviction list, headers and markers alike: between eviction passes only the
     * headers, since {@code arc_evict_state} removes the markers it inserted. Read by tests; see
     * {@link #snapshot()} for the headers.
     *
     * @param state a state with a list: not {@link ArcState#ANON}
     * @return the number of nodes on its sublists
     */
    int listNodes(ArcState state) {
        return lists[state.ordinal()].nodeCount();
    }

    /**
     * The whole state in the spec's format and order. Exact when no operation is in flight (always, driven by one
     * thread); otherwise each part is read at a different moment. Takes each sublist lock in turn.
     *
     * @return the snapshot
     */
    public ArcSnapshot snapshot() {
        List<HeaderSnapshot> headers = new ArrayList<>();
        new TreeMap<>(pendingWrites).values().forEach(h -> headers.add(h.snapshot()));
        Map<ArcState, TreeMap<Long, ArcHeader<V>>> held = new EnumMap<>(ArcState.class);
        hashTable.forEachHeader(h -> {
            if (!h.linked()) {
                held.computeIfAbsent(h.state, s -> new TreeMap<>()).put(h.key, h);
            }
        });
        for (ArcState s : ArcState.values()) {
            if (s.hasList()) {
                lists[s.ordinal()].forEachHeader(h -> headers.add(h.snapshot()));
                held.getOrDefault(s, new TreeMap<>()).values().forEach(h -> headers.add(h.snapshot()));
            }
        }
        List<StateSnapshot> states = new ArrayList<>();
        for (ArcState s : ArcState.values()) {
            states.add(new StateSnapshot(stateSize[s.ordinal()].get(), stateEsize[s.ordinal()].get()));
        }
        long[] statValues = new long[stats.length];
        for (int i = 0; i < stats.length; i++) {
            statValues[i] = stats[i].sum();
        }
        return new ArcSnapshot(now.get(), arcC.get(), arcP.get(), config.cMin(), config.cMax(), arcSize.value(),
                noGrow, warm, growTime, waiters.evictNeeded(), waiters.evictCount(), waiters.needFree(),
                waiters.counts(), states, headers, new ArcStats(statValues));
    }

    /**
     * {@code arc_fini}'s thread part: cancels the evict zthr (its last pass sees the cancel and releases every
     * waiter), releases any waiter left and rejects later operations. Operations in flight complete; a thread
     * waiting for eviction returns. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        evictor.shutdown();
        waiters.shutdown();
    }

    /** Runs {@code body} holding {@code key}'s hash lock ({@code HDR_LOCK}). */
    private <T> T underHashLock(long key, Supplier<T> body) {
        return underHashLockOf(BufHash.of(key), body);
    }

    /** {@link #underHashLock} of the key whose {@link BufHash#of} is {@code hash}. */
    private <T> T underHashLockOf(long hash, Supplier<T> body) {
        ReentrantLock lock = hashTable.lockForHash(hash);
        lock.lock();
        try {
            return body.get();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} holding the hash locks of both keys, taken lower stripe first, so that two threads taking
     * the same pair cannot deadlock.
     */
    private <T> T underHashLocks(long key, long otherKey, Supplier<T> body) {
        ReentrantLock[] pair = hashTable.lockPairFor(key, otherKey);
        pair[0].lock();
        try {
            pair[1].lock();
            try {
                return body.get();
            } finally {
                pair[1].unlock();
            }
        } finally {
            pair[0].unlock();
        }
    }

    // ---- read paths (arc_read) ----

    private V load(long key, LongFunction<? extends V> loader) {
        V value = loader.apply(key);
        if (value == null) {
            throw new IllegalStateException("loader must not return null, returned null for key " + key);
        }
        return value;
    }

    private Outcome hit(ArcHeader<V> h, ReadKind kind) {
        Outcome outcome = h.state == ArcState.MRU ? Outcome.HIT_MRU : Outcome.HIT_MFU;
        if (kind == ReadKind.DEMAND) {
            /*
             * arc_read counts and clears the prescient flag before it allocates the buffer (C6032-6042); here it is
             * cleared after, so that a hit refused by a dead evictor leaves the header as it was. Nothing between
             * the two reads the flag (the header is held, so eviction cannot meet it), so no successful operation
             * can tell the orders apart; the spec keeps the C's order.
             */
            allocateBuffer(h);
            if (h.prescientPrefetch) {
                bump(ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH);
                h.prescientPrefetch = false;
            }
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
     * The flags {@code arc_read} sets before the I/O, the miss statistics, then {@code arc_read_done}.
     *
     * @param ghost how a ghost-hit header was before the read, or null for a miss
     */
    private void readDone(ArcHeader<V> h, ReadKind kind, GhostState ghost) {
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
            readBuffer(h, ghost);
        }
    }

    /**
     * A read's buffer ({@code arc_read_done} → {@code arc_buf_alloc_impl}). If its private copy cannot be allocated,
     * the read is undone: a missed block's header is destroyed, a ghost hit's header goes back to its ghost state.
     */
    private void readBuffer(ArcHeader<V> h, GhostState ghost) {
        try {
            allocateBuffer(h);
        } catch (RuntimeException | Error e) {
            if (ghost == null) {
                destroy(h);
            } else {
                freeData(h);
                restoreGhost(h, ghost);
            }
            throw e;
        }
    }

    // ---- buffers, references and state changes; all require the header's hash lock ----

    /**
     * {@code arc_buf_alloc_impl}: the new buffer takes a reference, then shares the header's data if it is a linear
     * ABD and no other buffer exists, or else gets a private copy from {@code arc_get_data_buf}, which adapts. If
     * the copy cannot be allocated the reference is given back (with the header's prefetch flag) and nothing else
     * changed but the adaptation.
     */
    private void allocateBuffer(ArcHeader<V> h) {
        if (h.hasData && h.refcount == 0 && ArcArithmetic.linearAbd(tunables, h.size)) {
            addReference(h);
            h.sharedData = true;
            return;
        }
        evictor.requireAlive();
        boolean prefetch = h.prefetch;
        addReference(h);
        try {
            getDataImpl(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT));
        } catch (RuntimeException | Error e) {
            removeReference(h);
            h.prefetch = prefetch;
            throw e;
        }
        stats[ArcStat.OVERHEAD_SIZE.ordinal()].add(h.size);
    }

    /**
     * {@code arc_buf_destroy}: frees a private copy, or (for the last, shared buffer) leaves the data to the header;
     * destroying the shared buffer while others remain costs the same as freeing a copy. Then
     * {@code remove_reference}.
     */
    private void destroyBuffer(ArcHeader<V> h) {
        if (h.refcount > (h.sharedData ? 1 : 0)) {
            returnData(h);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()].add(-h.size);
        } else {
            h.sharedData = false;
        }
        removeReference(h);
    }

    /** {@code add_reference}: the 0 → 1 transition takes the header off its list, with its bytes before the buffer. */
    private void addReference(ArcHeader<V> h) {
        if (h.refcount == 0 && h.state != ArcState.ANON) {
            lists[h.state.ordinal()].remove(h);
            sizeUpdate.add(stateEsize[h.state.ordinal()], -h.accountedSize());
            h.prefetch = false;
        }
        h.refcount++;
    }

    /** {@code remove_reference}: the 1 → 0 transition links the header. */
    private void removeReference(ArcHeader<V> h) {
        if (--h.refcount == 0 && h.state != ArcState.ANON) {
            lists[h.state.ordinal()].insertHead(h);
            sizeUpdate.add(stateEsize[h.state.ordinal()], h.accountedSize());
        }
    }

    /**
     * {@code arc_write_ready}: where {@link ArcArithmetic#writeReadyCopies} says so the header's own data, allocated
     * with {@code ARC_HDR_DO_ADAPT | ARC_HDR_USE_RESERVE}; otherwise {@code arc_share_buf} of the writer's buffer.
     */
    private void writeReady(ArcHeader<V> h) {
        if (ArcArithmetic.writeReadyCopies(config, h.size)) {
            allocateHeaderData(h, EnumSet.of(HdrAllocFlag.ARC_HDR_DO_ADAPT, HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } else {
            h.hasData = true;
            h.sharedData = true;
            countHeaderData(h.size);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()].add(-h.size);
        }
    }

    /**
     * {@code arc_release}'s lone-buffer branch (C6719-6735), as the spec's: the held header and all its bytes go to
     * anon, out of the hash table, with access time 0 and its identity dropped.
     *
     * @return the same header under {@code newKey}
     */
    private ArcHeader<V> releaseLoneBuffer(ArcHeader<V> h, long newKey, int sublist) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h);
        h.lastAccess = 0;
        return h.renamed(newKey, sublist);
    }

    /**
     * {@code arc_release} with other buffers remaining (C6603-6718), as the spec's: one hold and one buffer fewer
     * on the header, which stays held; {@code arc_buf_size} bytes move from its state to anon with the buffer, on a
     * new anonymous header.
     *
     * @return the new anonymous header, under {@code newKey}
     */
    private ArcHeader<V> releaseOneBuffer(ArcHeader<V> h, long newKey, int sublist) {
        h.refcount--;
        sizeUpdate.add(stateSize[h.state.ordinal()], -h.size);
        ArcHeader<V> anon = new ArcHeader<>(newKey, h.size, sublist);
        anon.refcount = 1;
        sizeUpdate.add(stateSize[ArcState.ANON.ordinal()], anon.size);
        return anon;
    }

    /**
     * The start of {@code arc_write}, as the spec's: the anonymous header's stale data is unshared from the
     * writer's buffer (no bytes move; the buffer counts in {@code overhead_size}) or freed.
     */
    private void writeStart(ArcHeader<V> h) {
        if (!h.hasData) {
            return;
        }
        if (h.sharedData) {
            h.hasData = false;
            h.sharedData = false;
            countHeaderData(-h.size);
            stats[ArcStat.OVERHEAD_SIZE.ordinal()].add(h.size);
        } else {
            freeData(h);
        }
    }

    /** {@code arc_change_state}. */
    private void changeState(ArcHeader<V> h, ArcState to) {
        ArcState from = h.state;
        long oldSize = h.accountedSize();
        if (h.refcount == 0 && from.hasList()) {
            lists[from.ordinal()].remove(h);
            sizeUpdate.add(stateEsize[from.ordinal()], -oldSize);
        }
        sizeUpdate.add(stateSize[from.ordinal()], -oldSize);
        h.state = to;
        long newSize = h.accountedSize();
        sizeUpdate.add(stateSize[to.ordinal()], newSize);
        if (h.refcount == 0 && to.hasList()) {
            lists[to.ordinal()].insertHead(h);
            sizeUpdate.add(stateEsize[to.ordinal()], newSize);
        }
    }

    /** {@code arc_access}: applies the transition {@link ArcArithmetic#access} decides (fact sheet d.17). */
    private void access(ArcHeader<V> h) {
        long t = now.get();
        ArcArithmetic.Access a = ArcArithmetic.access(config, h.state, h.prefetch || h.prescientPrefetch,
                h.refcount > 0, h.lastAccess, t);
        if (a.clearsPrefetch()) {
            h.prefetch = false;
            h.prescientPrefetch = false;
        }
        if (a.touches()) {
            h.lastAccess = t;
        }
        if (a.to() != h.state) {
            changeState(h, a.to());
        }
        if (a.hit() != null) {
            bump(a.hit());
        }
    }

    /** {@code arc_change_state(arc_anon)} and {@code arc_hdr_destroy}. */
    private void destroy(ArcHeader<V> h) {
        changeState(h, ArcState.ANON);
        hashTable.remove(h);
        if (h.hasData) {
            freeData(h);
        }
    }

    // ---- allocation (arc_get_data_impl) and adaptation ----

    /** A ghost header's state, access time and prefetch flags, to put back if its read fails. */
    private record GhostState(ArcState state, long lastAccess, boolean prefetch, boolean prescientPrefetch) {

        GhostState(ArcHeader<?> h) {
            this(h.state, h.lastAccess, h.prefetch, h.prescientPrefetch);
        }
    }

    /** Puts a header that held no data back into the ghost state it was in, at the head of the ghost list. */
    private void restoreGhost(ArcHeader<V> h, GhostState ghost) {
        changeState(h, ghost.state());
        h.lastAccess = ghost.lastAccess();
        h.prefetch = ghost.prefetch();
        h.prescientPrefetch = ghost.prescientPrefetch();
    }

    /**
     * The ghost-hit path of {@code arc_read}: adapt, access (out of the ghost state), allocate the header's data. A
     * dead evictor fails it before it adapts anything; if the allocation throws, the header goes back to its ghost
     * state, at the head of the ghost list, with its access time and prefetch flags.
     *
     * @return how the header was, for {@link #readBuffer}
     */
    private GhostState ghostHit(ArcHeader<V> h) {
        evictor.requireAlive();
        GhostState ghost = new GhostState(h);
        adapt(h.size, ghost.state());
        access(h);
        try {
            allocateHeaderData(h, EnumSet.noneOf(HdrAllocFlag.class));
        } catch (RuntimeException | Error e) {
            restoreGhost(h, ghost);
            throw e;
        }
        return ghost;
    }

    /**
     * {@code arc_hdr_alloc_abd}: the header's data, counted in {@code compressed_size} and {@code uncompressed_size}.
     */
    private void allocateHeaderData(ArcHeader<V> h, Set<HdrAllocFlag> flags) {
        getDataImpl(h, flags);
        h.hasData = true;
        countHeaderData(h.size);
    }

    /** {@code compressed_size} and {@code uncompressed_size} move together: nothing is compressed. */
    private void countHeaderData(long delta) {
        stats[ArcStat.COMPRESSED_SIZE.ordinal()].add(delta);
        stats[ArcStat.UNCOMPRESSED_SIZE.ordinal()].add(delta);
    }

    /**
     * {@code arc_get_data_impl}, for a header's data or a buffer's private copy: adapt ({@code ARC_HDR_DO_ADAPT}),
     * wait for eviction ({@code ARC_HDR_USE_RESERVE}), account, grow {@code arc_p}. Throws before accounting
     * anything if the evict zthr died or the wait fails.
     */
    private void getDataImpl(ArcHeader<V> h, Set<HdrAllocFlag> flags) {
        evictor.requireAlive();
        ArcState state = h.state;
        long size = h.size;
        if (flags.contains(HdrAllocFlag.ARC_HDR_DO_ADAPT)) {
            adapt(size, state);
        }
        // a hashed header's allocation holds its hash lock, as in 2.1.1; an anonymous header's holds none there
        boolean hashed = h.hashed;
        boolean markedBefore = hashed && hashTable.markAllocating(h.key, true);
        try {
            waitForEviction(ArcArithmetic.evictionWaitAmount(config, size),
                    flags.contains(HdrAllocFlag.ARC_HDR_USE_RESERVE));
        } finally {
            if (hashed) {
                hashTable.markAllocating(h.key, markedBefore);
            }
        }
        arcSize.add(size);
        if (!state.isGhost()) {
            sizeUpdate.add(stateSize[state.ordinal()], size);
            if (h.linked()) {
                sizeUpdate.add(stateEsize[state.ordinal()], size);
            }
            if (sizeBelowTarget() && h.state == ArcState.ANON && ArcArithmetic.anonDataGrowsMruTarget(config,
                    size(ArcState.ANON), size(ArcState.MRU), arcP.get(), arcC.get())) {
                arcP.getAndUpdate(p -> ArcArithmetic.grownMruTarget(p, arcC.get(), size));
            }
        }
    }

    /**
     * The size test of the {@code arc_p} growth block: 2.1.1's {@code aggsum_upper_bound(&arc_size) < arc_c}, or
     * the exact {@code aggsum_compare(&arc_size, arc_c) < 0} with {@link ArcOptions#exactPGrowthCompare()}.
     */
    private boolean sizeBelowTarget() {
        return sizeReads.compare(arcSize, SizeReads.Site.P_GROWTH, arcC.get()) < 0;
    }

    /** {@code arc_hdr_free_abd}. */
    private void freeData(ArcHeader<V> h) {
        returnData(h);
        h.hasData = false;
        h.value = null;
        countHeaderData(-h.size);
    }

    /** {@code arc_free_data_impl}: returns one block's worth of a header's data. */
    private void returnData(ArcHeader<V> h) {
        int s = h.state.ordinal();
        if (h.linked()) {
            sizeUpdate.add(stateEsize[s], -h.size);
        }
        sizeUpdate.add(stateSize[s], -h.size);
        arcSize.add(-h.size);
    }

    /**
     * {@code arc_adapt(int bytes, arc_state_t *state)} (fact sheet d.1), as the spec's, its arithmetic in
     * {@link ArcArithmetic}: each {@code arc_p} update and the growth of {@code arc_c} is an atomic read-modify-write.
     */
    private void adapt(long size, ArcState state) {
        int bytes = (int) size;
        long c = arcC.get();
        if (state.isGhost()) {
            long mrug = size(ArcState.MRU_GHOST);
            long mfug = size(ArcState.MFU_GHOST);
            arcP.getAndUpdate(p -> ArcArithmetic.adaptMruTarget(config, state, bytes, c, p, mrug, mfug));
        }
        if (!ArcArithmetic.adaptMayGrow(config, availableMemory(), noGrow, c)
                || !ArcArithmetic.adaptWithinGrowthWindow(config, c,
                        sizeReads.read(arcSize, SizeReads.Site.ADAPT))) {
            return;
        }
        long cur;
        long grown;
        do {
            cur = arcC.get();
            grown = ArcArithmetic.adaptGrownTarget(config, cur, bytes);
        } while (!arcC.compareAndSet(cur, grown));
        if (!ArcArithmetic.adaptGrowthClamped(config, cur, bytes) && state == ArcState.ANON
                && ArcArithmetic.pGrowthAllowed(config, arcP.get(), arcC.get())) {
            arcP.addAndGet(bytes);
        }
        long newC = grown;
        arcP.getAndUpdate(p -> ArcArithmetic.unsignedMin(p, newC));
    }

    /** {@code arc_reduce_target_size} (fact sheet d.19), as the spec's, with separate atomic updates. */
    private void reduceTargetSizeImpl(long toFree) {
        long asize = sizeReads.read(arcSize, SizeReads.Site.REDUCE_TARGET);
        long c = ArcArithmetic.unsignedMin(arcC.get(), asize);
        if (ArcArithmetic.reduceLowersTarget(config, c, toFree)) {
            long newC = c - toFree;
            arcC.set(newC);
            arcP.getAndUpdate(p -> ArcArithmetic.reducedMruTarget(config, p, newC));
        } else {
            arcC.set(config.cMin());
            arcP.getAndUpdate(p -> ArcArithmetic.flooredMruTarget(config, p));
        }
        if (Long.compareUnsigned(asize, arcC.get()) > 0) {
            waiters.requestEviction();
        }
    }

    /** {@code arc_reap_cb_check} and {@code arc_reap_cb}, as the spec models them. */
    private Outcome reapImpl() {
        long free = availableMemory();
        long c = arcC.get();
        if (free < 0) {
            noGrow = true;
            warm = true;
            growTime = ArcArithmetic.reapGrowTime(config, now.get());
            long toFree = ArcArithmetic.reapToFree(config, c, free);
            if (toFree > 0) {
                reduceTargetSizeImpl(toFree);
            }
            return Outcome.REAPED;
        }
        noGrow = ArcArithmetic.reapNoGrow(config, free, c, now.get(), growTime, noGrow);
        return Outcome.IDLE;
    }

    // ---- overflow and eviction waiters ----

    /** {@code arc_wait_for_eviction(amount, use_reserve)} (fact sheet d.3, 2.1.1). */
    private void waitForEviction(long amount, boolean useReserve) {
        switch (ArcArithmetic.overflowLevel(config, arcC.get(), sizeReads.read(arcSize, SizeReads.Site.OVERFLOW),
                useReserve)) {
            case NONE -> {
            }
            case SOME -> waiters.ensureEvicting();
            case SEVERE -> {
                EvictWaiters.Waiter w = waiters.enqueue(amount);
                bump(ArcStat.EVICT_WAITS);
                long start = System.nanoTime();
                evictor.awaitRelease(waiters, w);
                evictionWaitTimes.record(System.nanoTime() - start);
            }
        }
    }

    // ---- the evict zthr ----

    /** {@code arc_evict_cb} (fact sheet d.7). */
    private void evictCb(BooleanSupplier cancelled) {
        bump(ArcStat.EVICTOR_RUNS);
        long evicted = evict();
        waiters.endPass(() -> !cancelled.getAsBoolean() && evicted != 0
                && sizeReads.compare(arcSize, SizeReads.Site.EVICT_CB, arcC.get()) > 0);
    }

    /** {@code arc_evict}: one pass over MRU, MFU, MRU ghost and MFU ghost (fact sheet d.8). */
    private long evict() {
        long total = 0;
        long target = ArcArithmetic.evictTargetMru(sizeReads.read(arcSize, SizeReads.Site.EVICT_MRU), arcC.get(),
                arcP.get(), size(ArcState.ANON), size(ArcState.MRU));
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MRU, target);
        ArcArithmetic.evictTypeDraws(random, config.sublists());
        total += evictImpl(ArcState.MFU,
                ArcArithmetic.evictTargetMfu(sizeReads.read(arcSize, SizeReads.Site.EVICT_MFU), arcC.get()));
        total += evictImpl(ArcState.MRU_GHOST,
                ArcArithmetic.evictTargetMruGhost(size(ArcState.MRU), size(ArcState.MRU_GHOST), arcC.get()));
        total += evictImpl(ArcState.MFU_GHOST,
                ArcArithmetic.evictTargetMfuGhost(size(ArcState.MRU_GHOST), size(ArcState.MFU_GHOST), arcC.get()));
        return total;
    }

    /** {@code arc_evict_impl}: a non-positive (s64) target means skip. */
    private long evictImpl(ArcState state, long target) {
        long bytes = ArcArithmetic.evictImplBytes(target, stateEsize[state.ordinal()].get());
        return bytes == 0 ? 0 : evictState(state, bytes);
    }

    /**
     * {@code arc_evict_state}: markers at every sublist's tail, each inserted and removed under its sublist lock,
     * then the scans of {@link ArcArithmetic#evictState} (fact sheet d.13).
     */
    private long evictState(ArcState state, long bytes) {
        ConcurrentMultilist ml = lists[state.ordinal()];
        int n = ml.sublistCount();
        SublistNode[] markers = new SublistNode[n];
        for (int i = 0; i < n; i++) {
            markers[i] = new SublistNode();
            Sublist s = ml.sublist(i);
            s.lock();
            try {
                s.insertTail(markers[i]);
            } finally {
                s.unlock();
            }
        }
        long total = ArcArithmetic.evictState(random, n, bytes,
                (idx, wanted) -> evictStateImpl(ml.sublist(idx), markers[idx], wanted),
                () -> bump(ArcStat.EVICT_NOT_ENOUGH));
        for (int i = 0; i < n; i++) {
            Sublist s = ml.sublist(i);
            s.lock();
            try {
                s.remove(markers[i]);
            } finally {
                s.unlock();
            }
        }
        return total;
    }

    /**
     * {@code arc_evict_state_impl}: under the sublist lock, evicts oldest first behind the marker, at most
     * {@code zfs_arc_evict_batch_limit} headers, taking each hash lock by tryLock; then, under
     * {@code arc_evict_lock}, advances {@code arc_evict_count} and releases the waiters it satisfies.
     */
    private long evictStateImpl(Sublist sublist, SublistNode marker, long bytes) {
        long evicted = 0;
        long realEvicted = 0;
        int budget = tunables.evictBatchLimit();
        sublist.lock();
        try {
            for (SublistNode n = sublist.newerThan(marker); n != null; n = sublist.newerThan(marker)) {
                if (budget <= 0 || Long.compareUnsigned(evicted, bytes) >= 0) {
                    break;
                }
                sublist.moveForward(marker);
                if (!(n instanceof ArcHeader<?> header)) {
                    continue;
                }
                @SuppressWarnings("unchecked")
                ArcHeader<V> h = (ArcHeader<V>) header;
                ReentrantLock hashLock = hashTable.lockFor(h.key);
                if (!hashLock.tryLock()) {
                    bump(ArcStat.MUTEX_MISS);
                    continue;
                }
                try {
                    if (hashLock.getHoldCount() > 1 && hashTable.allocatingUnder(h.key)) {
                        // the evictor runs inline on the allocating thread (stepped mode): ZFS's mutex is not
                        // reentrant, so its tryenter fails on the lock the waiting allocation holds
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
                } finally {
                    hashLock.unlock();
                }
            }
        } finally {
            sublist.unlock();
        }
        waiters.addEvicted(realEvicted);
        return evicted;
    }

    /**
     * {@code arc_evict_hdr}: a ghost header is destroyed (its logical size counts as evicted, nothing real); a
     * cached one loses its data and moves to its ghost state, unless it is a prefetch younger than its minimum
     * lifetime. Requires the sublist lock and the hash lock.
     */
    private long evictHeader(ArcHeader<V> h) {
        if (h.state.isGhost()) {
            bump(ArcStat.DELETED);
            destroy(h);
            return h.size;
        }
        if (ArcArithmetic.evictSkipsPrefetch(config, h.prefetch, h.prescientPrefetch, h.lastAccess, now.get())) {
            bump(ArcStat.EVICT_SKIP);
            return 0;
        }
        long size = h.size;
        freeData(h);
        changeState(h, ArcArithmetic.ghostOf(h.state));
        bump(ArcStat.EVICTIONS);
        stats[ArcStat.EVICTED_BYTES.ordinal()].add(size);
        return size;
    }

    // ---- helpers ----

    /** Deterministic mode: runs the evictor to quiescence if so configured; every operation ends here. */
    private Outcome afterOperation(Outcome outcome) {
        if (evictor.isStepped() && config.evictorRunsAfterEachOperation()) {
            while (evictor.step()) {
                continue;
            }
        }
        return outcome;
    }

    /** {@code zthr_wakeup(arc_evict_zthr)}, for {@link EvictWaiters} (created before the evictor). */
    private void wakeEvictor() {
        evictor.wakeup();
    }

    private long size(ArcState state) {
        return stateSize[state.ordinal()].get();
    }

    private long availableMemory() {
        return memory.freeMemory() - config.sysFree();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("ConcurrentArc must be open, was closed");
        }
    }

    private void bump(ArcStat stat) {
        stats[stat.ordinal()].increment();
    }
}
