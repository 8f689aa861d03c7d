package org.arcref.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link PageIndex} behaves as a map: after any sequence of puts and removes (keys clustered so that
 * probe runs collide and wrap, plus extreme values), every key maps to what a {@link HashMap} says.
 */
class PageIndexProperties {

    @Provide
    Arbitrary<Long> keys() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-8, 40),
                Arbitraries.longs().between(0, 6).map(k -> k << 58),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L));
    }

    @Property(tries = 1000)
    @Label("PageIndex agrees with HashMap after every put and remove")
    void agreesWithHashMap(@ForAll @IntRange(min = 1, max = 20) int maxEntries,
            @ForAll List<@From("keys") Long> operations) {
        PageIndex index = new PageIndex(maxEntries);
        Map<Long, Integer> model = new HashMap<>();
        for (int step = 0; step < operations.size(); step++) {
            long key = operations.get(step);
            if (model.containsKey(key)) {
                index.remove(key);
                model.remove(key);
            } else if (model.size() < maxEntries) {
                index.put(key, step);
                model.put(key, step);
            } else {
                assertThrows(IllegalStateException.class, () -> index.put(key, 0), "put into a full index");
            }
            assertEquals(model.size(), index.size(), "size at step " + step);
            for (long probe : operations) {
                assertEquals(model.getOrDefault(probe, PageIndex.ABSENT).intValue(), index.get(probe),
                        "get(" + probe + ") at step " + step);
            }
        }
    }
}
