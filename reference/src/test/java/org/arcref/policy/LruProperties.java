package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/** {@link Lru} hits exactly when an access-ordered {@link LinkedHashMap} of the same capacity holds the page. */
class LruProperties {

    @Property(tries = 1000)
    @Label("LRU: hits agree with an access-ordered LinkedHashMap at every step")
    void hitsAgreeWithLinkedHashMapModel(@ForAll @IntRange(min = 1, max = 10) int capacity,
            @ForAll @Size(max = 300) List<@IntRange(min = -5, max = 25) Integer> requests) {
        Map<Long, Boolean> model = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > capacity;
            }
        };
        Lru lru = new Lru(capacity);
        for (int step = 0; step < requests.size(); step++) {
            long page = requests.get(step);
            boolean expected = model.put(page, Boolean.TRUE) != null;
            assertEquals(expected, lru.access(page), "hit at step " + step + " (request " + page + "), c=" + capacity);
        }
    }
}
