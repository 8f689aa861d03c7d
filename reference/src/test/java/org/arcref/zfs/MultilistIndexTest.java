package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.arcref.random.SplitMix64;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ArcArithmetic#sublistOf} and {@link BufHash}: 2.1.1's {@code buf_hash}, sublist index and hash lock. */
class MultilistIndexTest {

    /**
     * The values zfs-2.1.1's own {@code cityhash4(1, 1, key, 1)} (libzpool, module/zcommon/cityhash.c) gives, with
     * {@code (unsigned int)hash % 4} and {@code hash & 2047}: printed by a C program linked against the oracle's
     * libzpool (docs/oracle.md, "The sublist hash").
     */
    @ParameterizedTest(name = "key {0}")
    @CsvSource({
        "0, 0x8dcc795a166f4497, 3, 1175",
        "1, 0x018a4a179af614d6, 2, 1238",
        "2, 0x945923f618e89994, 0, 404",
        "23, 0x274f2e43c2f76fbc, 0, 1980",
        "1000, 0x3f574c40dd974d86, 2, 1414",
        "-1, 0x146ab5e38158498d, 1, 397",
        "123456789, 0xe22efde8cb3742da, 2, 730",
    })
    void bufHashIsZfsCityhash4(long key, String hash, int sublistOf4, int hashLock) {
        assertEquals(Long.parseUnsignedLong(hash.substring(2), 16), BufHash.of(key));
        assertEquals(sublistOf4, ArcArithmetic.sublistOf(key, 4));
        assertEquals(hashLock, BufHash.hashLockOf(key));
    }

    @Test
    @DisplayName("random_in_range: no draw for one sublist; else the low 32 bits of a draw, unsigned, modulo the count")
    void randomIndexIsRandomInRange() {
        SplitMix64 a = new SplitMix64(7);
        assertEquals(0, ArcArithmetic.randomIndex(a, 1));
        assertEquals(new SplitMix64(7).state(), a.state(), "one sublist draws nothing");
        long draw = new SplitMix64(7).nextLong();
        assertEquals(Integer.remainderUnsigned((int) draw, 3), ArcArithmetic.randomIndex(a, 3));
        SplitMix64 b = new SplitMix64(7);
        ArcArithmetic.evictTypeDraws(b, 2);
        SplitMix64 c = new SplitMix64(7);
        c.nextLong();
        c.nextLong();
        assertEquals(c.state(), b.state(), "arc_evict_type draws twice with more than one sublist");
    }

    @Test
    @DisplayName("random_in_range with 3 sublists and seed 42: docs/porting.md's test values; the 64-bit draw differs")
    void randomIndexOfThreeSublistsPinned() {
        SplitMix64 random = new SplitMix64(42);
        SplitMix64 workload = new SplitMix64(42);
        int[] expected = {1, 2, 2, 1, 1, 2, 2, 2};
        int[] wholeDraw = {1, 1, 0, 0, 1, 0, 1, 2};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], ArcArithmetic.randomIndex(random, 3), "draw " + i);
            assertEquals(wholeDraw[i], workload.nextIndex(3), "nextIndex's draw " + i);
        }
        assertEquals(0xbdd732262feb6e95L, new SplitMix64(42).nextLong());
    }

    @Test
    @DisplayName("consecutive keys spread over every sublist, each index within [0, sublists)")
    void keysSpreadOverEverySublist() {
        int sublists = 4;
        int[] counts = new int[sublists];
        for (long key = 0; key < 400; key++) {
            int index = ArcArithmetic.sublistOf(key, sublists);
            assertTrue(index >= 0 && index < sublists, "key " + key + " -> " + index);
            counts[index]++;
        }
        assertTrue(Arrays.stream(counts).allMatch(c -> c >= 50), "400 keys over 4 sublists: " + Arrays.toString(counts));
        assertEquals(0, ArcArithmetic.sublistOf(12345, 1), "one sublist takes every key");
    }
}
