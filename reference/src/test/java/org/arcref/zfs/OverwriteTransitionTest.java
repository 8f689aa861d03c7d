package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The two branches of {@code arc_release} (zfs-2.1.1 arc.c C6527–6736) followed by the start of {@code arc_write}
 * (C7028–7110), which the spec's {@code overwrite KEY NEWKEY} models, with every expected value derived by hand from
 * the C below; one 8 KiB cache ({@code arc_c_min = arc_c_max}, so {@code arc_adapt} never grows {@code arc_c}), one
 * sublist, HZ=1000 ({@code ARC_MINTIME} 62 ticks), Linux's default ABDs ({@code zfs_abd_scatter_enabled} 1,
 * {@code zfs_abd_scatter_min_size} 1536: a 1 KiB block's data is linear, a 2 KiB block's scatter; fact sheet d.24),
 * nothing ever overflowing ({@code arc_size} stays at most 6 KiB of 8 KiB).
 *
 * <p>What the C does, and so what the tests expect:
 * <ul>
 *   <li>Neither branch of {@code arc_release} calls {@code arc_get_data_impl} or {@code arc_free_data_impl}, the
 *       only places that change {@code arc_size} (through {@code arc_space_consume}/{@code arc_space_return}):
 *       {@code arc_change_state} (C2378–2570), {@code arc_unshare_buf} (C2991–3016) and {@code arc_share_buf}
 *       (C2960–2988) move {@code arcs_size} bytes or only transfer their ownership. So {@code arc_c},
 *       {@code arc_p} and every arcstat but the three data sizes are unchanged, and {@code arc_size} changes only
 *       where {@code arc_write} frees a lone buffer's stale scatter data ({@code arc_hdr_free_abd}, C7097,
 *       C3201–3230).</li>
 *   <li>Lone buffer ({@code b_bufcnt == 1}, the else of C6603, C6719–6735): the held header is on no list, so
 *       {@code arc_change_state(arc_anon)} (C6729) skips the list and esize block (C2417, {@code refcnt} 1),
 *       removes the header from the hash table (C2449–2450) and moves its bytes: its one buffer shares
 *       {@code b_pabd} (the first buffer of a header always does without scatter ABDs), so the buffer loop adds
 *       nothing (C2490–2491) and {@code arc_hdr_size} = 1 KiB moves from the old state to anon (C2499–2503,
 *       C2561–2565). {@code b_arc_access = 0} (C6730; {@code arc_access} asserts it, C5412);
 *       {@code buf_discard_identity} (C971–976, C6733) clears only the DVA and birth: the flags stay.
 *       {@code arc_write} (C7087–7100) then unshares linear data: ownership moves to the buffer, no bytes, and
 *       {@code arc_unshare_buf} moves the block's size from {@code compressed_size}/{@code uncompressed_size} to
 *       {@code overhead_size} (C3011–3015). Scatter data was never shared (the buffer is a private copy,
 *       C2791–2806), so {@code arc_write} frees it: {@code arc_size} and anon fall by the block's size, and so do
 *       {@code compressed_size}/{@code uncompressed_size} (C3225–3226).</li>
 *   <li>Other buffers remain ({@code b_bufcnt > 1}, C6603–6718): {@code remove_reference} (C6614) takes the hold
 *       count from 2 to 1, so the header is not put on its list (C2315–2320) and the esize branch C6677–6682 is
 *       not taken; the sharing, if the leaving buffer had it, passes to the last buffer (C6633–6656), no bytes;
 *       {@code arc_buf_size} = 1 KiB leaves the state's {@code arcs_size} (C6674–6675); a new header from
 *       {@code arc_hdr_alloc} (C3261–3299: anon, no flags, {@code b_arc_access} 0, no {@code b_pabd}) takes the
 *       buffer and its hold (C6709–6713) and anon's {@code arcs_size} gains 1 KiB (C6717–6718). {@code arc_write}
 *       finds no {@code b_pabd} (C7087): nothing.</li>
 * </ul>
 */
class OverwriteTransitionTest {

    private final ZfsArc arc = new ZfsArc(ArcConfig.small(8192, 8192, 2048).withSublists(1), MemoryModel.plentiful());

    private HeaderSnapshot header(long key) {
        return arc.snapshot().headers().stream().filter(h -> h.key() == key).findFirst().orElse(null);
    }

    private long size(ArcState state) {
        return arc.snapshot().state(state).size();
    }

    private long esize(ArcState state) {
        return arc.snapshot().state(state).evictableSize();
    }

    private long stat(ArcStat stat) {
        return arc.stat(stat);
    }

    /**
     * Overwrites {@code key} as {@code newKey} and checks what no overwrite may change: targets, the evict count, the
     * evictor's flag, every statistic but the three data sizes, the clock.
     */
    private void overwriteChangingNoTarget(long key, long newKey) {
        ArcSnapshot before = arc.snapshot();
        assertEquals(Outcome.OVERWRITTEN, arc.overwrite(key, newKey));
        ArcSnapshot after = arc.snapshot();
        assertEquals(before.c(), after.c(), "arc_c");
        assertEquals(before.p(), after.p(), "arc_p");
        assertEquals(before.evictCount(), after.evictCount(), "arc_evict_count");
        assertEquals(before.evictNeeded(), after.evictNeeded(), "arc_evict_needed: no evictor woken");
        for (ArcStat stat : ArcStat.values()) {
            if (stat != ArcStat.OVERHEAD_SIZE && stat != ArcStat.COMPRESSED_SIZE && stat != ArcStat.UNCOMPRESSED_SIZE) {
                assertEquals(before.stats().get(stat), after.stats().get(stat), stat.kstatName());
            }
        }
        assertEquals(before.tick(), after.tick(), "clock");
    }

    /** The data sizes: {@code compressed_size} (equal to {@code uncompressed_size}) and {@code overhead_size}. */
    private void assertDataSizes(long headerData, long overhead, String reason) {
        assertEquals(headerData, stat(ArcStat.COMPRESSED_SIZE), "compressed_size: " + reason);
        assertEquals(headerData, stat(ArcStat.UNCOMPRESSED_SIZE), "uncompressed_size: " + reason);
        assertEquals(overhead, stat(ArcStat.OVERHEAD_SIZE), "overhead_size: " + reason);
    }

    /** The pending write of a block: anon, one hold, no header data, its buffer a private copy, on no list. */
    private void assertPendingWrite(long key, long size, String accessReason) {
        HeaderSnapshot pending = header(key);
        assertEquals(ArcState.ANON, pending.state());
        assertEquals(size, pending.size());
        assertEquals(1, pending.refcount(), "one buffer, one hold (C6713, or the reader's carried over)");
        assertFalse(pending.hasData(), "no b_pabd: arc_hdr_alloc allocates none, or arc_write dropped it");
        assertFalse(pending.sharedData());
        assertFalse(pending.linked());
        assertEquals(0, pending.lastAccess(), accessReason);
    }

    @Test
    @DisplayName("arc_release, lone buffer: the header and its 1 KiB go from MRU to anon, its old key is gone")
    void loneBufferTakesItsHeaderToAnon() {
        arc.tick(5);
        arc.read(1, 1024, ReadKind.DEMAND, true);
        arc.read(2, 1024, ReadKind.DEMAND, false);
        // MRU: key 1 held (1 KiB, not evictable), key 2 unheld (1 KiB, evictable); arc_size 2 KiB.
        assertEquals(2048, size(ArcState.MRU));
        assertEquals(1024, esize(ArcState.MRU));
        assertDataSizes(2048, 0, "two headers' linear data; key 1's buffer shares its header's (C2791-2800)");

        overwriteChangingNoTarget(1, 10);

        assertEquals(2048, arc.size(), "linear data is unshared, not freed (C7094-7095)");
        assertDataSizes(1024, 1024, "arc_unshare_buf: key 1's data now belongs to its buffer (C3011-3015)");
        assertNull(header(1), "C2449-2450: arc_change_state(arc_anon) took key 1 out of the hash table: no ghost");
        assertEquals(1024, size(ArcState.MRU), "C2561-2565: arc_hdr_size leaves MRU");
        assertEquals(1024, esize(ArcState.MRU), "C2417: a held header moves no evictable bytes");
        assertEquals(1024, size(ArcState.ANON), "C2499-2503: arc_hdr_size joins anon");
        assertEquals(0, esize(ArcState.ANON));
        assertPendingWrite(10, 1024, "C6730: b_arc_access = 0");

        assertEquals(Outcome.WRITE_COMPLETED, arc.completeWrite(10, false));
        assertEquals(2048, size(ArcState.MRU));
        assertEquals(0, size(ArcState.ANON));
        assertEquals(Outcome.MISS, arc.read(1, 1024, ReadKind.DEMAND, false), "key 1 has no header left");
    }

    @Test
    @DisplayName("arc_release, lone buffer from MFU: MFU's bytes go to anon; the header keeps its prescient flag")
    void loneBufferFromMfuKeepsItsFlags() {
        arc.read(1, 1024, ReadKind.DEMAND, false);
        arc.tick(100);
        // A demand hit after ARC_MINTIME: MRU -> MFU, now held; then a prescient hit on the held header: arc_read's
        // hit path sets ARC_FLAG_PRESCIENT_PREFETCH after arc_access (C6078-6080) and takes no reference.
        arc.read(1, 1024, ReadKind.DEMAND, true);
        arc.read(1, 1024, ReadKind.PRESCIENT_PREFETCH, false);
        assertEquals(ArcState.MFU, header(1).state());
        assertEquals(1, header(1).refcount());
        assertTrue(header(1).prescientPrefetch());

        overwriteChangingNoTarget(1, 10);

        assertEquals(1024, arc.size());
        assertEquals(0, size(ArcState.MFU), "C2561-2565: the header's 1 KiB leaves MFU");
        assertEquals(1024, size(ArcState.ANON));
        assertNull(header(1));
        assertTrue(header(10).prescientPrefetch(), "C971-976: buf_discard_identity clears only DVA and birth");
        assertEquals(0, header(10).lastAccess(), "C6730");

        // arc_write_done's arc_access (C7014) puts it in MRU (C5405-5415), stamped, flag and all.
        arc.completeWrite(10, false);
        assertEquals(ArcState.MRU, header(10).state());
        assertEquals(100, header(10).lastAccess(), "C5413: stamped when it joins MRU");
        assertTrue(header(10).prescientPrefetch());
    }

    @Test
    @DisplayName("arc_release, other buffers remain: a new anon header takes one buffer; the old header stays held")
    void oneOfSeveralBuffersMovesToANewAnonHeader() {
        arc.tick(7);
        arc.read(2, 1024, ReadKind.DEMAND, true);
        arc.read(2, 1024, ReadKind.DEMAND, true);
        arc.read(3, 1024, ReadKind.DEMAND, false);
        // Key 2: two buffers, the first sharing b_pabd, the second a private copy (arc_buf_alloc_impl C2791-2806):
        // 2 KiB in MRU, not evictable; key 3: 1 KiB, evictable. arc_size 3 KiB.
        assertEquals(3072, arc.size());
        assertEquals(3072, size(ArcState.MRU));
        assertEquals(1024, esize(ArcState.MRU));
        assertDataSizes(2048, 1024, "two headers' data and key 2's second buffer (C2805)");

        overwriteChangingNoTarget(2, 20);

        assertDataSizes(2048, 1024, "the copy moved to the new header stays a copy; the sharing passed (C6633-6656)");

        assertEquals(3072, arc.size());
        assertEquals(2048, size(ArcState.MRU), "C6674-6675: arc_buf_size leaves MRU");
        assertEquals(1024, esize(ArcState.MRU), "C6677-6682 not taken: key 2 is still referenced");
        assertEquals(1024, size(ArcState.ANON), "C6717-6718");
        HeaderSnapshot old = header(2);
        assertEquals(ArcState.MRU, old.state());
        assertEquals(1, old.refcount(), "C6614: remove_reference, 2 -> 1");
        assertFalse(old.linked(), "C2315-2320: still referenced, so not put on the list");
        assertEquals(7, old.lastAccess(), "the old header's access time is untouched");
        assertPendingWrite(20, 1024, "C3288: arc_hdr_alloc");

        // The old header's last hold: back on the head of MRU; its remaining buffer shares the data, so no copy
        // is returned and arc_size stays 3 KiB (key 2's 1 KiB, key 3's, the pending write's).
        arc.release(2);
        assertEquals(3072, arc.size());
        assertEquals(2048, esize(ArcState.MRU));
        arc.free(20);
        assertEquals(2048, arc.size(), "the pending write's buffer is freed");
        assertEquals(0, size(ArcState.ANON));
    }

    @Test
    @DisplayName("arc_release, other buffers remain: the new header has none of the old one's flags")
    void theNewAnonHeaderStartsWithoutFlags() {
        arc.read(2, 1024, ReadKind.DEMAND, true);
        arc.read(2, 1024, ReadKind.DEMAND, true);
        arc.read(2, 1024, ReadKind.PRESCIENT_PREFETCH, false);
        assertTrue(header(2).prescientPrefetch());
        assertEquals(2, header(2).refcount());

        arc.overwrite(2, 20);

        assertTrue(header(2).prescientPrefetch(), "the old header keeps its flags");
        assertFalse(header(20).prescientPrefetch(), "C3280-3281: arc_hdr_alloc sets b_flags to the type only");
        assertFalse(header(20).prefetch());
    }

    @Test
    @DisplayName("arc_release, lone buffer with scatter data: arc_write frees the stale 2 KiB, arc_size falls")
    void loneBufferWithScatterDataLosesItsHeaderData() {
        arc.read(1, 2048, ReadKind.DEMAND, true);
        // A 2 KiB miss: arc_hdr_alloc_abd gives the header 2 KiB of scatter data (abd_alloc, 2048 >= 1536), and the
        // demand buffer cannot share it (C2791-2800), so arc_get_data_buf allocates a 2 KiB copy (C2803-2805).
        assertEquals(4096, arc.size());
        assertEquals(4096, size(ArcState.MRU));
        assertDataSizes(2048, 2048, "the header's data and the buffer's copy");

        overwriteChangingNoTarget(1, 10);

        // arc_change_state moves arc_hdr_size plus the unshared buffer (C2490-2503): 4 KiB from MRU to anon. Then
        // arc_write: the buffer is not shared, so arc_hdr_free_abd (C7097) returns the header's 2 KiB.
        assertEquals(2048, arc.size(), "C3201-3230: the stale scatter data is freed");
        assertEquals(0, size(ArcState.MRU));
        assertEquals(2048, size(ArcState.ANON));
        assertNull(header(1));
        assertDataSizes(0, 2048, "no header data left; the buffer is still a copy");
        assertPendingWrite(10, 2048, "C6730: b_arc_access = 0");

        // complete: arc_write_ready allocates the header's data again (C6885-6905, scatter enabled), then the
        // writer's buffer is destroyed: its copy freed (C3086-3088).
        arc.completeWrite(10, false);
        assertEquals(2048, arc.size());
        assertEquals(2048, size(ArcState.MRU));
        assertDataSizes(2048, 0, "the header's new data; no buffer left");
    }

    @Test
    @DisplayName("arc_release, other buffers remain with scatter data: one 2 KiB copy moves to anon, nothing freed")
    void oneOfSeveralScatterBuffersMovesWithoutFreeing() {
        arc.read(2, 2048, ReadKind.DEMAND, true);
        arc.read(2, 2048, ReadKind.DEMAND, true);
        // The header's 2 KiB of scatter data and two 2 KiB copies: 6 KiB in MRU (below arc_c = 8 KiB).
        assertEquals(6144, arc.size());
        assertDataSizes(2048, 4096, "the header's data and two copies");

        overwriteChangingNoTarget(2, 20);

        assertEquals(6144, arc.size(), "arc_release frees nothing; the new header has no b_pabd for arc_write");
        assertEquals(4096, size(ArcState.MRU), "C6674-6675");
        assertEquals(2048, size(ArcState.ANON), "C6717-6718");
        assertEquals(1, header(2).refcount());
        assertDataSizes(2048, 4096, "unchanged");
        assertPendingWrite(20, 2048, "C3288: arc_hdr_alloc");
    }

    @Test
    @DisplayName("arc_release of a written block: its own linear data is not shared, so arc_write frees it")
    void writtenBlockLosesItsUnsharedLinearData() {
        arc.write(1, 512);
        // arc_alloc_buf: a header without b_pabd and one buffer whose 512 B come from arc_get_data_buf (C2803-2805).
        arc.completeWrite(1, true);
        // arc_write_ready with zfs_abd_scatter_enabled (C6885-6905): arc_hdr_alloc_abd gives the header 512 B of its
        // own (linear: 512 < 1536) and copies the buffer into it; the writer's buffer stays a copy. MRU 1 KiB.
        assertEquals(1024, arc.size());
        assertFalse(header(1).sharedData());
        assertDataSizes(512, 512, "the header's data and the writer's copy");

        overwriteChangingNoTarget(1, 2);

        // Lone buffer: all 1 KiB to anon (C2490-2503); arc_write: the buffer does not share b_pabd, so
        // arc_hdr_free_abd (C7097) frees it although it is linear: what decides is sharing, not linearity.
        assertEquals(512, arc.size(), "C3201-3230: the unshared header data is freed");
        assertEquals(512, size(ArcState.ANON));
        assertDataSizes(0, 512, "only the buffer's copy is left");
        assertPendingWrite(2, 512, "C6730: b_arc_access = 0");
    }
}
