package org.arcref.specs.arc;

import java.util.HashMap;
import java.util.Map;

/**
 * The sequential model of {@link ArcKeyOperations}: a map of cached values and a map of pending writes. A read
 * of an uncached key caches its disk value; a write needs a key neither cached nor pending; completion moves the
 * pending value to the cache; free drops either; lookup sees only cached values.
 */
public class SequentialBlockStore {
    private final Map<Integer, Long> cached = new HashMap<>();
    private final Map<Integer, Long> pending = new HashMap<>();

    public Object read(int key) {
        if (pending.containsKey(key)) {
            return "REJECTED";
        }
        return cached.computeIfAbsent(key, k -> ArcKeyOperations.diskValue(k));
    }

    public Object write(int key, long value) {
        if (pending.containsKey(key) || cached.containsKey(key)) {
            return "REJECTED";
        }
        pending.put(key, value);
        return "WRITTEN";
    }

    public Object complete(int key) {
        Long value = pending.remove(key);
        if (value == null) {
            return "REJECTED";
        }
        cached.put(key, value);
        return "WRITE_COMPLETED";
    }

    public String free(int key) {
        return pending.remove(key) != null || cached.remove(key) != null ? "FREED" : "NOT_CACHED";
    }

    public Long lookup(int key) {
        return cached.get(key);
    }
}
