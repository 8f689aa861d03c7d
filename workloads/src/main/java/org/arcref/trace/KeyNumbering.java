package org.arcref.trace;

import java.util.HashMap;
import java.util.Map;

/**
 * Numbers string keys densely, 0, 1, 2, …, in the order of their first appearance, so that a trace of string keys
 * (a key-value cache trace, a (host, disk) pair of a block trace) reads as {@code long} identities. Two keys get
 * the same number exactly when they are equal as strings. One instance serves one reading of one trace; not
 * thread-safe.
 */
final class KeyNumbering {

    private final Map<String, Long> numbers = new HashMap<>();

    /**
     * @param key a key
     * @return its number: the count of distinct keys seen before its first appearance
     */
    long of(String key) {
        Long known = numbers.get(key);
        if (known != null) {
            return known;
        }
        long next = numbers.size();
        numbers.put(key, next);
        return next;
    }
}
