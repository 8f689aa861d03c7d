package org.arcref.zfs;

/**
 * zfs-2.1.1's {@code buf_hash(spa, dva, birth)} (arc.c:953, {@code cityhash4(spa, dva_word[0], dva_word[1],
 * birth)}, module/zcommon/cityhash.c) of a block, over the fixed mapping from a key to a block identity that the
 * oracle drives arc.c with ({@code docs/oracle.md}): {@code spa_load_guid} 1, DVA word 0 = 1, DVA word 1 = the key
 * (as an unsigned 64-bit value), physical birth txg 1. The hash fixes a header's sublist
 * ({@link ArcArithmetic#sublistOf}) and its hash lock ({@link #hashLockOf}).
 */
public final class BufHash {

    /** {@code BUF_LOCKS}: the hash locks of the buffer hash table (arc.c:736). */
    public static final int BUF_LOCKS = 2048;

    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;

    private BufHash() {
    }

    /**
     * @param key a block's key
     * @return {@code buf_hash} of the block the key stands for
     */
    public static long of(long key) {
        return cityhash4(1, 1, key, 1);
    }

    /**
     * The hash lock of a block: {@code BUF_HASH_LOCK(BUF_HASH_INDEX(...))}, the hash's low bits (the table has at least
     * {@code BUF_LOCKS} buckets, so the index's low bits are the hash's). Two blocks with the same hash lock exclude
     * each other: while one's lock is held, the evictor's {@code mutex_tryenter} of the other fails.
     *
     * @param key a block's key
     * @return its hash lock, in {@code [0, BUF_LOCKS)}
     */
    public static int hashLockOf(long key) {
        return lockOfHash(of(key));
    }

    /**
     * @param hash a block's {@link #of}
     * @return {@link #hashLockOf} of that block, for a caller that has its hash already
     */
    public static int lockOfHash(long hash) {
        return (int) (hash & (BUF_LOCKS - 1));
    }

    /** {@code cityhash4} of module/zcommon/cityhash.c: CityHash's 128-to-64 finaliser over four words. */
    static long cityhash4(long w1, long w2, long w3, long w4) {
        long mul = K2 + 64;
        long a = w1 * K1;
        long b = w2;
        long c = w4 * mul;
        long d = w3 * K2;
        return helper(Long.rotateRight(a + b, 43) + Long.rotateRight(c, 30) + d, a + Long.rotateRight(b + K2, 18) + c,
                mul);
    }

    private static long helper(long u, long v, long mul) {
        long a = (u ^ v) * mul;
        a ^= a >>> 47;
        long b = (v ^ a) * mul;
        b ^= b >>> 47;
        return b * mul;
    }
}
