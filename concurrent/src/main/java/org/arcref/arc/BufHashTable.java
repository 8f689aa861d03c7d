package org.arcref.arc;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.arcref.zfs.BufHash;

/**
 * The buffer hash table ({@code buf_hash_table}) with its striped hash locks ({@code BUF_LOCKS},
 * {@code HDR_LOCK(hdr)}): each key maps to one of a power-of-two number of locks, and a header's fields are
 * guarded by its key's lock. Lookups ({@link #get}) are safe without the lock; inserting or removing a key, and
 * reading or changing its header, require the key's lock.
 *
 * @param <V> the type of the cached values
 */
final class BufHashTable<V> {

    private final ConcurrentHashMap<Long, ArcHeader<V>> headers = new ConcurrentHashMap<>();
    private final ReentrantLock[] locks;
    /** Per lock: whether an allocation that holds it waits for eviction; guarded by that lock. */
    private final boolean[] allocating;

    /** @param lockCount the number of hash locks, a power of two (validated by {@link ArcOptions}) */
    BufHashTable(int lockCount) {
        locks = new ReentrantLock[lockCount];
        allocating = new boolean[lockCount];
        for (int i = 0; i < lockCount; i++) {
            locks[i] = new AdaptiveMutex();
        }
    }

    /** {@code BUF_HASH_LOCK(idx)}: the lock of {@code key}'s stripe. */
    ReentrantLock lockFor(long key) {
        return locks[stripeOf(key)];
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
        return BufHash.hashLockOf(key) & (locks.length - 1);
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

    ArcHeader<V> get(long key) {
        return headers.get(key);
    }

    /** {@code buf_hash_insert}; requires the key's lock. */
    void put(ArcHeader<V> h) {
        headers.put(h.key, h);
    }

    /** {@code buf_hash_remove}; requires the key's lock. */
    void remove(ArcHeader<V> h) {
        headers.remove(h.key, h);
    }

    /** @return a weakly consistent view of the hashed headers */
    Collection<ArcHeader<V>> headers() {
        return headers.values();
    }
}
