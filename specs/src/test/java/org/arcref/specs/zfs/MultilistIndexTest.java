package org.arcref.specs.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.arcref.zfs.MultilistIndex;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link MultilistIndex}, the stand-in for {@code buf_hash() % num_sublists}. */
class MultilistIndexTest {

    @Test
    @DisplayName("consecutive keys spread over every sublist, each index within [0, sublists)")
    void keysSpreadOverEverySublist() {
        int sublists = 4;
        int[] counts = new int[sublists];
        for (long key = 0; key < 400; key++) {
            int index = MultilistIndex.sublistOf(key, sublists);
            assertTrue(index >= 0 && index < sublists, "key " + key + " -> " + index);
            counts[index]++;
        }
        assertTrue(Arrays.stream(counts).allMatch(c -> c >= 50), "400 keys over 4 sublists: " + Arrays.toString(counts));
        assertEquals(0, MultilistIndex.sublistOf(12345, 1), "one sublist takes every key");
    }
}
