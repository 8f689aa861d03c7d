package org.arcref.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.MemoryModel;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.Tunables;
import org.arcref.zfs.check.ArcInvariants;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * B1 on the ghost-hit path of {@code arc_read} (zfs-2.1.1 {@code arc.c} 6177-6181: {@code arc_adapt},
 * {@code arc_access}, then {@code arc_hdr_alloc_abd}, all under the hash lock) when the allocation's wait for
 * eviction throws: in deterministic mode the reader steps the evictor itself, and an {@link Error} thrown by
 * {@code arc_evict_cb} propagates to it ({@link Evictor}). The header must go back to its ghost state, at the head
 * of its ghost list, with its access time and prefetch flags; what stays, as the {@link ConcurrentArc} contract says,
 * is the adaptation and the statistics. The waiter queue throws from {@code addEvicted} (the end of every sublist
 * visit) once the test arms it, standing for a failed {@code ASSERT} in {@code arc_evict_cb}.
 *
 * <p>The scenario, by hand. A 16 KiB cache ({@code arc_c = arc_c_min = arc_c_max}, so {@code arc_adapt} never
 * grows it: 5113), one sublist, 4 KiB blocks, linear ABDs (no private copies), HZ = 1000 ({@code ARC_MINTIME} 62
 * ticks, prefetch lifetime 1000 ticks). {@code arc_is_overflowing(B_FALSE)} (5139-5158): {@code overflow =
 * MAX(4096, 16K >> 8) = 4096}, {@code over = arc_size - 16K - 2048}, SEVERE once {@code over >= 2048}, that is
 * {@code arc_size >= 20K}; a waiter waits for {@code 4096 * zfs_arc_eviction_pct / 100 = 8K} (355, 5299).
 * <ol>
 *   <li>Keys 0, 7 and 6, in that order, are read twice, 100 ticks apart: MFU ({@code arc_access} 5454: an MRU
 *       hit after {@code ARC_MINTIME}), key 0 at the tail, key 6 at the head, last accessed at ticks 100, 200 and
 *       300.</li>
 *   <li>Keys 1 and 2 are read held: 20 KiB, the last allocation at 16K (not overflowing, so nothing asks for
 *       eviction). Keys 3 and 4, held, then each allocate at 20K: SEVERE; each inline pass finds MRU all held and
 *       evicts {@code arc_size - arc_c = 4K} from MFU's tail: key 0, then key 7, become MFU ghosts, key 7 at the
 *       head. MFU ghost eviction's target {@code mrug + mfug - arc_c} is negative, so the ghosts stay.</li>
 *   <li>At tick 400 a prefetch read of key 6 flags it and stamps it 400: eviction will skip it for 1000 ticks
 *       (3936-3942).</li>
 *   <li>The demand read of key 0 is an MFU-ghost hit: {@code arc_adapt} with {@code mult = 1} (5093) drops
 *       {@code arc_p} from 8K to {@code MAX(1K, 8K - 4K) = 4K}; {@code arc_access} (5509) moves key 0 to MFU's
 *       head with no data; its allocation at 20K is SEVERE. The inline pass: MRU all held; MFU target 4K, its
 *       evictable 4K is key 6, which is skipped ({@code evict_skip}); then key 0, whose hash lock the reader holds:
 *       {@code mutex_miss} (4109). The end of that sublist visit throws.</li>
 * </ol>
 */
class GhostHitRollbackTest {

    private static final ArcConfig CONFIG = ArcConfig.small(16L << 10, 16L << 10, 4096).withSublists(1)
            .withTunables(Tunables.defaults().withAbdScatterEnabled(false));
    private static final long BLOCK = 4096;
    private static final long GHOST = 0;
    private static final long NEWER_GHOST = 7;
    private static final long PREFETCHED = 6;

    private final AtomicBoolean armed = new AtomicBoolean();
    private final AssertionError injected = new AssertionError("assertion failure injected into arc_evict_cb");
    /** @return a deterministic ARC whose {@code addEvicted} throws {@link #injected} once {@link #armed} */
    private ConcurrentArc<Long> armedArc(ArcConfig config) {
        return new ConcurrentArc<>(config, MemoryModel.plentiful(), ArcOptions.deterministic(),
                (m, sysFree, wake) -> new EvictWaiters(m, sysFree, wake) {
                    @Override
                    void addEvicted(long realEvicted) {
                        if (armed.get()) {
                            throw injected;
                        }
                        super.addEvicted(realEvicted);
                    }
                }, AtomicLong::addAndGet, ConcurrentArc::newSizeAggsum);
    }

    @Test
    @DisplayName("B1: a ghost hit whose wait for eviction throws goes back to its ghost state, at the list's head")
    void failedGhostHitGoesBackToItsGhostState() {
        ConcurrentArc<Long> arc = armedArc(CONFIG);
        for (long key : new long[] {GHOST, NEWER_GHOST, PREFETCHED}) {
            read(arc, key, ReadKind.DEMAND, false);
            arc.tick(100);
            assertEquals(Outcome.HIT_MRU, read(arc, key, ReadKind.DEMAND, false), "set-up: key " + key + " to MFU");
        }
        for (long key = 1; key <= 4; key++) {
            read(arc, key, ReadKind.DEMAND, true);
        }
        arc.tick(100);
        assertEquals(Outcome.HIT_MFU, read(arc, PREFETCHED, ReadKind.PREFETCH, false));
        ArcSnapshot before = arc.snapshot();
        HeaderSnapshot ghost = header(before, GHOST);
        assertEquals(new HeaderSnapshot(GHOST, ArcState.MFU_GHOST, BLOCK, false, false, 0, false, false, 100, 0,
                true), ghost, "set-up: key 0 is an MFU ghost, last accessed at tick 100");
        assertEquals(20L << 10, before.size(), "set-up: 20 KiB cached, so the ghost hit's allocation is SEVERE");
        assertEquals(List.of(NEWER_GHOST, GHOST), keysOf(before, ArcState.MFU_GHOST), "set-up: key 0 at the tail");

        armed.set(true);
        AssertionError thrown = assertThrows(AssertionError.class, () -> read(arc, GHOST, ReadKind.DEMAND, false),
                "the Error thrown by arc_evict_cb must reach the reader that stepped the evictor");
        assertSame(injected, thrown, "the reader must fail with the evictor's Error itself, was " + thrown);

        ArcSnapshot after = arc.snapshot();
        assertEquals(ghost, header(after, GHOST),
                "B1: the failed ghost hit must leave key 0 in its ghost state, with its access time and flags");
        assertEquals(List.of(GHOST, NEWER_GHOST), keysOf(after, ArcState.MFU_GHOST),
                "B1: key 0 must be back on the MFU ghost list, at its head");
        assertEquals(List.of(PREFETCHED), keysOf(after, ArcState.MFU), "key 0 must be off the MFU list");
        assertNull(arc.lookup(GHOST), "N1: lookup returned the value of a read that failed");
        assertEquals(before.size(), after.size(), "B1: the failed ghost hit counted bytes");
        assertEquals(before.p() - BLOCK, after.p(), "the adaptation stays: arc_p = MAX(arc_p_min, 8K - 4K)");
        assertEquals(1, after.stats().get(ArcStat.MFU_GHOST_HITS), "the statistics stay: one MFU ghost hit");
        assertEquals(1, after.stats().get(ArcStat.EVICT_SKIP) - before.stats().get(ArcStat.EVICT_SKIP),
                "the evictor's scan skipped the young prefetched key 6");
        assertEquals(1, after.stats().get(ArcStat.MUTEX_MISS) - before.stats().get(ArcStat.MUTEX_MISS),
                "the evictor's scan met key 0 while its allocation waited under its hash lock: one mutex_miss");
        ArcInvariants.r3r4Accounting(after);
    }

    /**
     * With scatter ABDs (the default) a ghost hit allocates twice: the header's data ({@code arc_hdr_alloc_abd},
     * without adapting) and then the buffer's private copy ({@code arc_buf_alloc_impl} → {@code arc_get_data_buf}).
     * Here the first allocation fits and the second waits and throws: the read is undone, the header's new data
     * freed and the header put back in its ghost state ({@code readBuffer}). The scenario, by hand, with the levels
     * of the class comment (SEVERE at {@code arc_size >= 20K}); an unheld 4 KiB demand read costs 4K once its copy
     * is destroyed, a held one 8K:
     * <ol>
     *   <li>Key 0 read twice, 100 ticks apart: MFU, 4K. Keys 1 and 2 read held: 20K, the last allocation at 16K.</li>
     *   <li>Key 3, unheld: its data allocates at 20K (SEVERE): the pass finds MRU all held and evicts 4K of MFU, key
     *       0, which becomes an MFU ghost (the ghost targets are negative); its copy allocates at 20K again, the
     *       pass finds nothing evictable and releases the waiter; the copy is destroyed: 20K.</li>
     *   <li>Releasing key 2 destroys its copy: 16K, keys 2 and 3 evictable on MRU, key 3 (linked when its copy was
     *       destroyed) at the tail.</li>
     *   <li>The ghost hit on key 0: its data allocates at 16K (NONE), its copy at 20K (SEVERE); the pass evicts 4K
     *       from MRU's tail (key 3), and the end of that sublist visit throws.</li>
     * </ol>
     */
    @Test
    @DisplayName("B1: a ghost hit whose private copy's wait for eviction throws frees its data and goes back to its ghost state")
    void failedCopyOfAGhostHitFreesItsDataAndGoesBack() {
        ConcurrentArc<Long> arc = armedArc(CONFIG.withTunables(Tunables.defaults()));
        read(arc, GHOST, ReadKind.DEMAND, false);
        arc.tick(100);
        assertEquals(Outcome.HIT_MRU, read(arc, GHOST, ReadKind.DEMAND, false), "set-up: key 0 to MFU");
        for (long key = 1; key <= 2; key++) {
            read(arc, key, ReadKind.DEMAND, true);
        }
        read(arc, 3, ReadKind.DEMAND, false);
        arc.release(2);
        ArcSnapshot before = arc.snapshot();
        HeaderSnapshot ghost = header(before, GHOST);
        assertEquals(ArcState.MFU_GHOST, ghost.state(), "set-up: key 0 is an MFU ghost, was " + ghost);
        assertEquals(16L << 10, before.size(), "set-up: 16 KiB, so the header data fits and the copy is SEVERE");

        armed.set(true);
        assertSame(injected, assertThrows(AssertionError.class, () -> read(arc, GHOST, ReadKind.DEMAND, false)),
                "the Error thrown by arc_evict_cb must reach the reader that stepped the evictor");

        ArcSnapshot after = arc.snapshot();
        assertEquals(ghost, header(after, GHOST),
                "B1: the ghost hit whose copy failed must leave key 0 a ghost without data, as it was");
        assertEquals(List.of(GHOST), keysOf(after, ArcState.MFU_GHOST), "B1: key 0 must be back on the MFU ghost list");
        assertNull(arc.lookup(GHOST), "N1: lookup returned the value of a read that failed");
        assertEquals(ArcState.MRU_GHOST, header(after, 3).state(), "the pass evicted MRU's tail, key 3, then threw");
        assertEquals(before.size() - BLOCK, after.size(),
                "B1: only the evicted block leaves arc_size: key 0's data and copy are not counted");
        ArcInvariants.r3r4Accounting(after);
    }

    private static Outcome read(ConcurrentArc<Long> arc, long key, ReadKind kind, boolean hold) {
        return arc.read(key, BLOCK, kind, hold, k -> k).outcome();
    }

    private static HeaderSnapshot header(ArcSnapshot s, long key) {
        return s.headers().stream().filter(h -> h.key() == key).findFirst()
                .orElseThrow(() -> new AssertionError("no header for key " + key));
    }

    /** @return the keys of {@code state}'s list, head (newest) first */
    private static List<Long> keysOf(ArcSnapshot s, ArcState state) {
        return s.headers().stream().filter(h -> h.state() == state && h.linked()).map(HeaderSnapshot::key).toList();
    }
}
