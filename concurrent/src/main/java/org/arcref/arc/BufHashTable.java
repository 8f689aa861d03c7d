package org.arcref.arc;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.arcref.zfs.BufHash;

/**
 * The buffer hash table ({@code buf_hash_table}) with its striped hash locks ({@code BUF_LOCKS},
 * {@code HDR_LOCK(hdr)}): each key maps to one of a power-of-two number of locks, and a header's fields are
 * guarded by its key's lock. Looking a key up ({@link #get}), inserting or removing it, and reading or changing
 * its header require the key's lock; {@link #forEachHeader} alone runs without locks, weakly consistent.
 *
 * @param <V> the type of the cached values
 */
final class BufHashTable<V> {

    /*
     * As buf_hash_table in arc.c: an array of buckets, each a chain of headers through ArcHeader#hashNext
     * (b_hash_next), indexed by the low bits of buf_hash. The bucket count is a power of two at least the number
     * of lock stripes (and at least BUF_LOCKS), so a bucket lies in exactly one stripe and its chain is guarded
     * by that stripe's lock, as BUF_HASH_LOCK(idx) guards ht_table[idx]. A header carries its own
     * ARC_FLAG_IN_HASH_TABLE (ArcHeader#hashed), so the allocation path asks the header, not the table.
     *
     * The size: buf_init sizes the table from physical memory (one bucket per 8 KiB); here one bucket per 2 KiB
     * of arc_c_max, so that with 4 KiB blocks the cached headers and their ghosts average about one header per
     * chain. The bucket count decides no outcome: only the lock stripes do, and they depend on the hash alone.
     *
     * Buckets are written with release stores and read plainly under their lock; forEachHeader reads them with
     * acquire loads. A header is inserted once at most, at its chain's head, and an unlink only bypasses it, so
     * every hashNext points at a header inserted earlier: an unlocked walk sees no cycle and ends. Unlike
     * buf_hash_remove, remove leaves the removed header's hashNext as it was (arc.c clears b_hash_next): a walk
     * standing on that header still reaches the rest of its chain, so a header hashed throughout a walk is always
     * passed, as in ConcurrentHashMap's traversals. A removed header is never hashed again (put asserts it).
     */
    private static final int MIN_BUCKETS = 1 << 12;
    private static final long BYTES_PER_BUCKET = 2048;

    private final AtomicReferenceArray<ArcHeader<V>> buckets;
    private final int bucketMask;
    private final ReentrantLock[] locks;
    /** Per lock: whether an allocation that holds it waits for eviction; guarded by that lock. */
    private final boolean[] allocating;

    /**
     * @param lockCount the number of hash locks, a power of two (validated by {@link ArcOptions})
     * @param cMax {@code arc_c_max}, which sizes the table
     */
    BufHashTable(int lockCount, long cMax) {
        locks = new ReentrantLock[lockCount];
        allocating = new boolean[lockCount];
        for (int i = 0; i < lockCount; i++) {
            locks[i] = new AdaptiveMutex();
        }
        int n = Math.max(Math.max(MIN_BUCKETS, lockCount), BufHash.BUF_LOCKS);
        while (n < 1 << 30 && (long) n * BYTES_PER_BUCKET < cMax) {
            n <<= 1;
        }
        buckets = new AtomicReferenceArray<>(n);
        bucketMask = n - 1;
    }

    /** {@code BUF_HASH_LOCK(idx)}: the lock of {@code key}'s stripe. */
    ReentrantLock lockFor(long key) {
        return lockForHash(BufHash.of(key));
    }

    /**
     * {@link #lockFor} of the key whose {@link BufHash#of} is {@code hash}: the hash picks both the lock and the
     * bucket ({@link #get(long, long)}), so a caller doing both, as {@code buf_hash_find} does, hashes once.
     */
    ReentrantLock lockForHash(long hash) {
        return locks[stripeOfHash(hash)];
    }

    /**
     * The locks of two keys in the order every thread takes them: the lower stripe first (the same lock twice if
     * both keys share a stripe; the locks are reentrant).
     *
     * @return the first lock and the second
     */
    ReentrantLock[] lockPairFor(long key, long otherKey) {
        int a = stripeOf(key);
        int b = stripeOf(otherKey);
        return new ReentrantLock[] {locks[Math.min(a, b)], locks[Math.max(a, b)]};
    }

    /**
     * @param key a key
     * @return its hash lock: {@link BufHash#hashLockOf} (2.1.1's {@code buf_hash} low bits) masked to the lock count,
     *     so that with {@code BUF_LOCKS} locks two keys share a lock exactly when they do in ZFS
     */
    int stripeOf(long key) {
        return stripeOfHash(BufHash.of(key));
    }

    private int stripeOfHash(long hash) {
        return BufHash.lockOfHash(hash) & (locks.length - 1);
    }

    /**
     * Marks {@code key}'s lock as held by an allocation that waits for eviction ({@code arc_get_data_impl} under the
     * hash lock, as 2.1.1's {@code arc_read} and {@code arc_release} hold it), or clears the mark; requires the lock.
     *
     * @param key a key
     * @param value the mark
     * @return the mark before
     */
    boolean markAllocating(long key, boolean value) {
        int s = stripeOf(key);
        assert locks[s].isHeldByCurrentThread() : "the allocation must hold the hash lock of " + key;
        boolean before = allocating[s];
        allocating[s] = value;
        return before;
    }

    /**
     * @param key a key
     * @return whether an allocation holding {@code key}'s lock waits for eviction; requires the lock
     */
    boolean allocatingUnder(long key) {
        return allocating[stripeOf(key)];
    }

    /** {@code buf_hash_find}; requires the key's lock. */
    ArcHeader<V> get(long key) {
        return get(key, BufHash.of(key));
    }

    /** {@link #get(long)} of {@code key}, whose {@link BufHash#of} is {@code hash}; requires the key's lock. */
    ArcHeader<V> get(long key, long hash) {
        for (ArcHeader<V> h = buckets.getPlain(bucketOfHash(hash)); h != null; h = h.hashNext) {
            if (h.key == key) {
                return h;
            }
        }
        return null;
    }

    /** {@code buf_hash_insert} of a header not hashed before; requires the key's lock. */
    void put(ArcHeader<V> h) {
        assert !h.hashed && h.hashNext == null : "a header is hashed once: " + h.key;
        int b = bucketOf(h.key);
        h.hashNext = buckets.getPlain(b);
        h.hashed = true;
        buckets.setRelease(b, h);
    }

    /** {@code buf_hash_remove}: unlinks {@code h} if it is hashed; requires the key's lock. */
    void remove(ArcHeader<V> h) {
        if (!h.hashed) {
            return;
        }
        int b = bucketOf(h.key);
        ArcHeader<V> p = buckets.getPlain(b);
        if (p == h) {
            buckets.setRelease(b, h.hashNext);
        } else {
            while (p.hashNext != h) {
                p = p.hashNext;
            }
            p.hashNext = h.hashNext;
        }
        h.hashed = false;
    }

    /**
     * Passes every hashed header to {@code action}, without locks: weakly consistent (a header hashed or removed
     * meanwhile may or may not be passed), exact when nothing changes the table.
     */
    void forEachHeader(Consumer<ArcHeader<V>> action) {
        for (int b = 0; b <= bucketMask; b++) {
            for (ArcHeader<V> h = buckets.getAcquire(b); h != null; h = h.hashNext) {
                if (h.hashed) {
                    action.accept(h);
                }
            }
        }
    }

    private int bucketOf(long key) {
        return bucketOfHash(BufHash.of(key));
    }

    private int bucketOfHash(long hash) {
        return (int) hash & bucketMask;
    }
}
