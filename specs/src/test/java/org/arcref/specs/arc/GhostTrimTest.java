package org.arcref.specs.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.arcref.differential.Lockstep;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The MFU ghost list's trim in {@code arc_evict} (zfs-2.1.1 {@code arc.c} 4705-4713): target {@code mru_ghost +
 * mfu_ghost - arc_c}, on the spec and (by D1, {@link Lockstep}) the concurrent ARC. Random operation sequences
 * seldom let the ghost lists together outgrow {@code arc_c} while the MFU ghost list holds most of it.
 *
 * <p>The scenario, by hand. {@code ArcConfig.small(16K, 16K, 4K)}: {@code arc_c = 16K} for good, {@code arc_p =
 * 8K}, one sublist, linear ABDs (a block costs its size once), HZ 1000 ({@code ARC_MINTIME} 62 ticks).
 * {@code arc_is_overflowing} (5139): overflow 4K, SEVERE once {@code arc_size >= 20K} before an allocation. Each key
 * k = 1, 2, ... is read, then read again 100 ticks later: an MRU hit after {@code ARC_MINTIME} moves it to MFU
 * (5454), so MRU stays empty and {@code arc_p} never moves (no ghost hit adapts it, and {@code arc_c} is at its
 * maximum, so {@code arc_adapt} returns before growing it, 5113).
 * <ul>
 *   <li>Keys 1-5 fit: the fifth allocation finds 16K (not SEVERE); 20K in MFU.</li>
 *   <li>From key 6 on, each first read finds 20K: SEVERE, the reader runs a pass. MRU's target {@code MIN(20K -
 *       16K, 0 + 0 - 8K)} is negative (4594), MFU's is 4K (4650): MFU's tail becomes an MFU ghost. MRU ghost's
 *       target {@code 0 + 0 - 16K} is negative (4687); MFU ghost's {@code 0 + mfu_ghost - 16K} (4705) is positive
 *       only once the MFU ghost list holds more than 16K.</li>
 *   <li>So keys 1-4 become ghosts at the reads of keys 6-9 (16K of MFU ghosts, target 0: kept) and key 5 at the
 *       read of key 10: 20K of MFU ghosts, target 4K, and the same pass destroys the oldest ghost, key 1
 *       ({@code deleted}).</li>
 * </ul>
 */
class GhostTrimTest {

    private static final long BLOCK = 4096;

    @Test
    @DisplayName("arc_evict trims the MFU ghost list to mru_ghost + mfu_ghost <= arc_c")
    void mfuGhostListIsTrimmedOnceTheGhostsOutgrowArcC() {
        Lockstep both = new Lockstep(ArcConfig.small(16L << 10, 16L << 10, BLOCK).withSublists(1)
                .withTunables(Tunables.defaults().withAbdScatterEnabled(false)));
        for (long key = 1; key <= 9; key++) {
            twice(both, key);
        }
        ArcSnapshot kept = both.snapshot();
        assertEquals(List.of(4L, 3L, 2L, 1L), keysOf(kept, ArcState.MFU_GHOST),
                "set-up: keys 1-4 are MFU ghosts, 16K, exactly arc_c: target 0 keeps them");
        assertEquals(0, kept.stats().get(ArcStat.DELETED), "no ghost destroyed while the ghosts fit in arc_c");

        twice(both, 10);
        ArcSnapshot trimmed = both.snapshot();
        assertEquals(List.of(5L, 4L, 3L, 2L), keysOf(trimmed, ArcState.MFU_GHOST),
                "key 5's eviction made 20K of MFU ghosts: target 4K destroys the oldest, key 1");
        assertEquals(1, trimmed.stats().get(ArcStat.DELETED), "one ghost destroyed (arcstat_deleted)");
        assertEquals(4 * BLOCK, trimmed.state(ArcState.MFU_GHOST).size());
    }

    private static void twice(Lockstep both, long key) {
        both.apply(new Operation.Read(key, BLOCK, ReadKind.DEMAND, false));
        both.apply(new Operation.Tick(100));
        both.apply(new Operation.Read(key, BLOCK, ReadKind.DEMAND, false));
    }

    /** @return the keys on {@code state}'s list, head (newest) first */
    private static List<Long> keysOf(ArcSnapshot s, ArcState state) {
        return s.headers().stream().filter(h -> h.state() == state && h.linked()).map(HeaderSnapshot::key).toList();
    }
}
