package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.arcref.zfs.BufHash;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@link BufHashTable}'s chains and its walk, at the places a chain or a table has an end: the last bucket, a
 * header behind another in its chain, and a table larger than the minimum. The keys were chosen by their
 * {@link BufHash#of} (2.1.1's {@code buf_hash}), whose low bits index the buckets; each test first checks that its
 * keys have the bits it needs.
 *
 * <p>The bucket count, by the constructor's rule: {@code max(4096, lockCount, BUF_LOCKS)}, doubled while
 * {@code buckets * 2048 < arc_c_max}. For {@code arc_c_max} = 16 KiB that is 4096 (mask {@code 0xfff}); for 64 MiB,
 * 4096 → 8192 → 16384 → 32768, where {@code 32768 * 2048} = 64 MiB stops it (mask {@code 0x7fff}).
 */
class BufHashTableTest {

    private static final long SMALL_C_MAX = 16L << 10;
    private static final long LARGE_C_MAX = 64L << 20;
    /** {@code buf_hash} 0xfc87057e272d1fff: the last of 4096 buckets. */
    private static final long LAST_OF_4096 = 3446;
    /** {@code buf_hash} 0x529b6cf5ac91ffff: the last of 32768 buckets. */
    private static final long LAST_OF_32768 = 53980;
    /** {@code buf_hash} 0x985c5a0aabd796e9 and 0xcbff415200d316e9: both in bucket 0x6e9 of 4096. */
    private static final long SAME_BUCKET_A = 35;
    private static final long SAME_BUCKET_B = 90;

    @Test
    @DisplayName("forEachHeader passes a header in the table's last bucket")
    void walkReachesTheLastBucket() {
        assertEquals(0xfff, BufHash.of(LAST_OF_4096) & 0xfff, "set-up: key 3446 hashes to bucket 4095 of 4096");
        assertEquals(0x6e9, BufHash.of(SAME_BUCKET_A) & 0xfff, "set-up: key 35 is in bucket 0x6e9 of 4096");
        BufHashTable<Long> table = new BufHashTable<>(1, SMALL_C_MAX);
        put(table, LAST_OF_4096);
        put(table, SAME_BUCKET_A);
        assertEquals(Set.of(LAST_OF_4096, SAME_BUCKET_A), keysWalked(table),
                "the walk must pass every hashed header, the last bucket's included");
    }

    @Test
    @DisplayName("removing a header behind another in its chain unlinks it and only it")
    void removeBehindTheChainsHead() {
        assertEquals(BufHash.of(SAME_BUCKET_A) & 0xfff, BufHash.of(SAME_BUCKET_B) & 0xfff,
                "set-up: keys 35 and 90 share a bucket of 4096");
        for (long[] order : new long[][] {{SAME_BUCKET_A, SAME_BUCKET_B}, {SAME_BUCKET_B, SAME_BUCKET_A}}) {
            BufHashTable<Long> table = new BufHashTable<>(1, SMALL_C_MAX);
            ArcHeader<Long> first = put(table, order[0]);
            ArcHeader<Long> head = put(table, order[1]);
            assertSame(first, head.hashNext, "set-up: key " + order[1] + " was inserted last, at the chain's head");
            ReentrantLock lock = table.lockFor(first.key);
            lock.lock();
            try {
                table.remove(first);
                assertFalse(first.hashed, "a removed header is no longer hashed");
                assertNull(table.get(first.key), "key " + first.key + " was removed but its header is still found");
                assertSame(head, table.get(head.key), "removing key " + first.key + " lost key " + head.key);
            } finally {
                lock.unlock();
            }
            assertEquals(Set.of(head.key), keysWalked(table), "only the head is left in the chain");
        }
    }

    @Test
    @DisplayName("a table sized for a 64 MiB arc_c_max finds every key it holds and passes them all")
    void largerTableHoldsEveryKey() {
        assertEquals(0x7fff, BufHash.of(LAST_OF_32768) & 0x7fff, "set-up: key 53980 is in bucket 32767 of 32768");
        BufHashTable<Long> table = new BufHashTable<>(ArcOptions.ZFS_BUF_LOCKS, LARGE_C_MAX);
        Set<Long> keys = new HashSet<>();
        for (long key = 0; key < 20_000; key++) {
            keys.add(key);
        }
        keys.add(LAST_OF_32768);
        for (long key : keys) {
            put(table, key);
        }
        for (long key : keys) {
            ReentrantLock lock = table.lockFor(key);
            lock.lock();
            try {
                ArcHeader<Long> h = table.get(key);
                assertEquals(key, h == null ? null : h.key, "key " + key + " was put but is not found");
            } finally {
                lock.unlock();
            }
        }
        assertEquals(keys, keysWalked(table), "the walk must pass every hashed header once");
    }

    private static ArcHeader<Long> put(BufHashTable<Long> table, long key) {
        ArcHeader<Long> h = new ArcHeader<>(key, 4096, 0);
        ReentrantLock lock = table.lockFor(key);
        lock.lock();
        try {
            table.put(h);
        } finally {
            lock.unlock();
        }
        return h;
    }

    /** @return the keys {@link BufHashTable#forEachHeader} passes, checking that none is passed twice */
    private static Set<Long> keysWalked(BufHashTable<Long> table) {
        Set<Long> walked = new HashSet<>();
        table.forEachHeader(h -> {
            if (!walked.add(h.key)) {
                throw new AssertionError("key " + h.key + " passed twice");
            }
        });
        return walked;
    }
}
