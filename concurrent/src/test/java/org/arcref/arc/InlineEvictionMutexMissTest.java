package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * In stepped mode the evictor runs inline on an allocating thread, which may hold hash locks; the locks are
 * reentrant, ZFS's mutexes are not. A header whose hash lock is the one a waiting allocation of a hashed header holds
 * (2.1.1's {@code arc_read} and {@code arc_release} allocate under it) counts a {@code mutex_miss}, as the spec's
 * {@code lockedStripe} does; every other header is evicted, even when the allocating thread happens to hold its lock
 * for another reason. Here {@link ConcurrentArc#write} holds its key's lock while its new, unhashed header allocates:
 * that is no hashed header's allocation (ZFS's {@code arc_alloc_buf} holds no hash lock), so its inline pass must
 * evict. With one hash lock every key shares it.
 *
 * <p>The scenario, by hand. A 16 KiB cache ({@code arc_c = arc_c_min = arc_c_max}), one sublist, 4 KiB blocks,
 * linear ABDs (a read's buffer shares the header's data, no private copies), the evictor run only inline. As in
 * {@code GhostHitRollbackTest}, an allocation is SEVERE once {@code arc_size >= 20K} and waits for 8K.
 * <ol>
 *   <li>Keys 1-4 are read unheld and key 5 is written, its write completed without a hold: each allocates at most
 *       at 16K (NONE), 20K in all, all on MRU's list, key 1 at the tail. {@code arc_p} has grown from 8K to 12K (the
 *       read of key 3, at 12K &lt; 16K with anon + MRU = 12K &gt; 8K).</li>
 *   <li>The read of key 6 is a miss, hashed before its data allocates at 20K: SEVERE. The inline pass's MRU target
 *       is {@code MIN(20K - 16K, 0 + 20K - 12K) = 4K}; the scan meets keys 1-5, each under the lock the reader holds
 *       for key 6's allocation: five {@code mutex_miss}, nothing evicted, so the pass releases the waiter. 24K.</li>
 *   <li>The write of key 7 allocates at 24K: SEVERE. Its pass's MRU target is {@code MIN(24K - 16K, 0 + 24K - 12K) =
 *       8K}: keys 1 and 2, from the tail, become MRU ghosts. The MFU target {@code 16K - 16K} is 0; the MRU ghost
 *       target {@code 16K + 8K - 16K = 8K} deletes both ghosts. No {@code mutex_miss}; 20K with the write's 4K.</li>
 * </ol>
 * An allocation mark left set after key 6's allocation, or reported set, would make the second pass count a
 * {@code mutex_miss} on all six headers and evict nothing. (Five hashed headers allocate before the write, an odd
 * number: a mark that flips at each hashed allocation instead of being restored is then left set too.)
 */
class InlineEvictionMutexMissTest {

    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096).withSublists(1)
            .withTunables(Tunables.defaults().withAbdScatterEnabled(false)).withEvictorRunsAfterEachOperation(false);
    private static final ArcOptions ONE_HASH_LOCK = new ArcOptions(true, EvictorMode.STEPPED, false, 1);
    private static final long BLOCK = 4096;

    @Test
    @DisplayName("the inline evictor misses the lock of a waiting hashed header's allocation, and only that one")
    void onlyAHashedHeadersAllocationMakesTheInlineEvictorMiss() {
        ConcurrentArc<Long> arc = new ConcurrentArc<>(CONFIG, MemoryModel.plentiful(), ONE_HASH_LOCK);
        for (long key = 1; key <= 4; key++) {
            assertEquals(Outcome.MISS, read(arc, key));
        }
        assertEquals(Outcome.WRITTEN, arc.write(5, BLOCK, 5L));
        assertEquals(Outcome.WRITE_COMPLETED, arc.completeWrite(5, false));
        ArcSnapshot cached = arc.snapshot();
        assertEquals(20L << 10, cached.size(), "set-up: five 4 KiB blocks");
        assertEquals(0, cached.stats().get(ArcStat.EVICT_WAITS), "set-up: no allocation waited");
        assertEquals(12L << 10, cached.p(), "set-up: arc_p grew once, by 4K");
        assertEquals(List.of(5L, 4L, 3L, 2L, 1L), keysOf(cached, ArcState.MRU), "set-up: MRU, key 1 at the tail");

        assertEquals(Outcome.MISS, read(arc, 6));
        ArcSnapshot afterRead = arc.snapshot();
        assertEquals(1, afterRead.stats().get(ArcStat.EVICT_WAITS), "key 6's allocation waited");
        assertEquals(5, afterRead.stats().get(ArcStat.MUTEX_MISS),
                "the pass inside key 6's allocation must miss keys 1-5: they share the lock it holds");
        assertEquals(0, afterRead.stats().get(ArcStat.EVICTIONS), "and evict nothing");
        assertEquals(24L << 10, afterRead.size());

        assertEquals(Outcome.WRITTEN, arc.write(7, BLOCK, 7L));
        ArcSnapshot afterWrite = arc.snapshot();
        assertEquals(2, afterWrite.stats().get(ArcStat.EVICT_WAITS), "the write's allocation waited");
        assertEquals(5, afterWrite.stats().get(ArcStat.MUTEX_MISS),
                "the pass inside the write's allocation must miss nothing: no hashed header's allocation holds the"
                        + " lock, though the writer holds it");
        assertEquals(2, afterWrite.stats().get(ArcStat.EVICTIONS), "it evicts keys 1 and 2 from MRU's tail");
        assertEquals(2, afterWrite.stats().get(ArcStat.DELETED), "and deletes their ghosts");
        assertEquals(List.of(6L, 5L, 4L, 3L), keysOf(afterWrite, ArcState.MRU));
        assertEquals(List.of(), keysOf(afterWrite, ArcState.MRU_GHOST));
        assertEquals(20L << 10, afterWrite.size(), "keys 3-6 and the pending write");
    }

    private static Outcome read(ConcurrentArc<Long> arc, long key) {
        return arc.read(key, BLOCK, ReadKind.DEMAND, false, k -> k).outcome();
    }

    /** @return the keys of {@code state}'s list, head (newest) first */
    private static List<Long> keysOf(ArcSnapshot s, ArcState state) {
        return s.headers().stream().filter(h -> h.state() == state && h.linked()).map(HeaderSnapshot::key).toList();
    }
}
