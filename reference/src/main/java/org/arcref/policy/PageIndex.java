package org.arcref.policy;

import java.util.Arrays;

/**
 * A map from page numbers ({@code long}) to slot numbers ({@code int}) with a fixed maximum number
 * of entries, made for the hot path of a page-cache policy: no boxing, no allocation after
 * construction, expected O(1) {@link #get}, {@link #put} and {@link #remove}.
 *
 * <p>Not thread-safe: the caller serialises every call. Every key, including negative ones and
 * {@code 0}, can be stored; values must be {@code >= 0}.
 */
public final class PageIndex {

    /*
     * Implementation overview.
     *
     * Open addressing with linear probing over two parallel arrays, keys[] and values[], whose length
     * is the power of two at or above twice the maximum number of entries, so the load factor never
     * exceeds 1/2 and probe sequences stay short. A slot is empty when values[slot] == ABSENT; keys
     * need no reserved value. The home slot of a key is its Fibonacci hash (multiply by 2^64/phi and
     * keep the top bits), which spreads runs of consecutive block numbers, the common case in traces.
     *
     * remove() uses backward-shift deletion instead of tombstones: after emptying a slot it walks the
     * rest of the probe run and moves back every entry whose home slot is not between the hole and its
     * current slot. Every run therefore stays contiguous and a lookup can stop at the first empty slot,
     * however long the index has been in use.
     */

    /** The value {@link #get} returns for a key that is not in the index. */
    public static final int ABSENT = -1;

    /** The largest maximum number of entries an index can be created for. */
    public static final int MAX_ENTRIES = 1 << 29;

    private static final long FIBONACCI = 0x9E3779B97F4A7C15L;

    private final long[] keys;
    private final int[] values;
    private final int mask;
    private final int shift;
    private final int maxEntries;
    private int size;

    /**
     * @param maxEntries the most entries the index will hold at once, in [1, {@value #MAX_ENTRIES}]
     * @throws IllegalArgumentException if {@code maxEntries} is out of range
     */
    public PageIndex(int maxEntries) {
        if (maxEntries < 1 || maxEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException(
                    "maxEntries must be in [1, " + MAX_ENTRIES + "], was " + maxEntries);
        }
        int slots = Integer.highestOneBit(maxEntries * 2 - 1) << 1;
        this.keys = new long[slots];
        this.values = new int[slots];
        this.mask = slots - 1;
        this.shift = Long.SIZE - Integer.numberOfTrailingZeros(slots);
        this.maxEntries = maxEntries;
        Arrays.fill(values, ABSENT);
    }

    /**
     * @param key any page number
     * @return the value stored for {@code key}, or {@link #ABSENT}
     */
    public int get(long key) {
        for (int slot = home(key); ; slot = (slot + 1) & mask) {
            int value = values[slot];
            if (value == ABSENT || keys[slot] == key) {
                return value;
            }
        }
    }

    /**
     * Adds a key that is not in the index.
     *
     * @param key any page number not in the index
     * @param value the value to store, {@code >= 0}
     * @throws IllegalArgumentException if {@code value < 0}
     * @throws IllegalStateException if {@code key} is already present or the index is full
     */
    public void put(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("value must be >= 0, was " + value);
        }
        if (size == maxEntries) {
            throw new IllegalStateException("index is full: it holds maxEntries=" + maxEntries + " keys");
        }
        int slot = home(key);
        while (values[slot] != ABSENT) {
            if (keys[slot] == key) {
                throw new IllegalStateException("key " + key + " is already in the index");
            }
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        values[slot] = value;
        size++;
    }

    /**
     * Removes a key that is in the index.
     *
     * @param key a page number in the index
     * @throws IllegalStateException if {@code key} is not in the index
     */
    public void remove(long key) {
        int hole = home(key);
        while (keys[hole] != key || values[hole] == ABSENT) {
            if (values[hole] == ABSENT) {
                throw new IllegalStateException("key " + key + " is not in the index");
            }
            hole = (hole + 1) & mask;
        }
        for (int slot = (hole + 1) & mask; values[slot] != ABSENT; slot = (slot + 1) & mask) {
            int homeSlot = home(keys[slot]);
            if (((slot - homeSlot) & mask) >= ((slot - hole) & mask)) {
                keys[hole] = keys[slot];
                values[hole] = values[slot];
                hole = slot;
            }
        }
        values[hole] = ABSENT;
        size--;
    }

    /** @return the number of keys in the index */
    public int size() {
        return size;
    }

    private int home(long key) {
        return (int) ((key * FIBONACCI) >>> shift);
    }
}
