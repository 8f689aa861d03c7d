package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * d.24: how buffers get their data in zfs-2.1.1 on Linux, one rule per test, each expected value derived by hand
 * from {@code arc.c} at zfs-2.1.1 (line numbers C<n>), {@code abd.c} and {@code abd_os.c}.
 *
 * <p>The rules the derivations use:
 * <ul>
 *   <li>{@code abd_alloc} (abd.c:184) returns a linear ABD iff {@code !zfs_abd_scatter_enabled ||
 *       size < zfs_abd_scatter_min_size} (abd_os.c:633; defaults 1 and 1536, abd.c:106, abd_os.c:176);</li>
 *   <li>{@code arc_buf_alloc_impl} (C2724) takes a reference first (C2745), then shares {@code b_pabd} only if
 *       {@code arc_can_share} (no other buffer: {@code ARC_BUF_LAST}, nothing shared yet, C2714-2715), the header
 *       has data and it is linear and not a linear page (C2791-2795); otherwise the buffer's data comes from
 *       {@code arc_get_data_buf} (C2803-2804), which calls {@code arc_get_data_impl} with
 *       {@code ARC_HDR_DO_ADAPT} (C5182), and {@code overhead_size} grows by the size (C2805);</li>
 *   <li>{@code arc_get_data_impl} (C5277-5343): {@code arc_adapt} if asked, the overflow wait, then the size is
 *       added to {@code arc_size} and the state's {@code arcs_size};</li>
 *   <li>{@code arc_hdr_alloc_abd} (C3171-3198) adds the size to {@code compressed_size} and
 *       {@code uncompressed_size} (C3196-3197), {@code arc_hdr_free_abd} subtracts it (C3234-3235);</li>
 *   <li>{@code arc_buf_destroy} (C3829): {@code remove_reference} (C3850), then {@code arc_buf_destroy_impl}
 *       (C3851), which frees a private copy and lowers {@code overhead_size} (C3086-3088) or, for the shared
 *       buffer, clears {@code ARC_FLAG_SHARED_DATA} (C3083-3084) and, if buffers remain, frees {@code b_pabd} and
 *       shares the last one (C3113-3141).</li>
 * </ul>
 * In {@code ArcConfig.small(8192, 8192, 2048)} {@code arc_c = arc_c_max}, so {@code arc_adapt} returns before
 * growing anything (C5113), and the overflow allowance is {@code MAX(2048, 8192 >> 8) = 2048} (C5142).
 */
class ScatterAbdTransitionTest {

    private static final ArcConfig FIXED = ArcConfig.small(8192, 8192, 2048).withSublists(1);
    private static final ArcConfig NO_SCATTER = FIXED.withTunables(FIXED.tunables().withAbdScatterEnabled(false));

    private static HeaderSnapshot header(ZfsArc arc, long key) {
        return arc.snapshot().headers().stream().filter(h -> h.key() == key).findFirst().orElseThrow();
    }

    private static long stat(ZfsArc arc, ArcStat stat) {
        return arc.stat(stat);
    }

    /**
     * A held demand read of a 2 KiB block, scatter on. Miss: {@code arc_hdr_alloc_abd} (C6181) gives the header
     * 2048 bytes of scatter data (2048 >= 1536): {@code arc_size} 2048, {@code compressed_size} 2048.
     * {@code arc_read_done} moves it to MRU (C5724) and allocates the reader's buffer (C5743): the data is not
     * linear, so a private copy: {@code arc_size} 4096, MRU 4096, {@code overhead_size} 2048; held, so
     * {@code arcs_esize} 0. The release destroys the buffer: {@code remove_reference} lists the header and
     * {@code arc_evictable_space_increment} adds data and copy (4096, C2201-2216), then the copy is freed from
     * size and esize ({@code arc_free_data_impl}): 2048 each, {@code overhead_size} 0.
     */
    @Test
    @DisplayName("d.24: a held block of scatter data costs its size twice until its buffer is destroyed")
    void heldScatterBlockCostsTwice() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.read(1, 2048, ReadKind.DEMAND, true);
        ArcSnapshot s = arc.snapshot();
        assertEquals(4096, s.size(), "header data plus the reader's private copy");
        assertEquals(4096, s.state(ArcState.MRU).size());
        assertEquals(0, s.state(ArcState.MRU).evictableSize());
        assertEquals(2048, s.stats().get(ArcStat.OVERHEAD_SIZE));
        assertEquals(2048, s.stats().get(ArcStat.COMPRESSED_SIZE));
        assertEquals(2048, s.stats().get(ArcStat.UNCOMPRESSED_SIZE));
        HeaderSnapshot h = header(arc, 1);
        assertTrue(h.hasData() && !h.sharedData() && h.refcount() == 1, h.toString());

        arc.release(1);
        s = arc.snapshot();
        assertEquals(2048, s.size(), "the copy is freed with its buffer");
        assertEquals(2048, s.state(ArcState.MRU).size());
        assertEquals(2048, s.state(ArcState.MRU).evictableSize());
        assertEquals(0, s.stats().get(ArcStat.OVERHEAD_SIZE));
        assertEquals(2048, s.stats().get(ArcStat.COMPRESSED_SIZE));
    }

    /**
     * The same read of a 1 KiB block: 1024 < 1536, so {@code abd_alloc} gives linear data, {@code arc_can_share}
     * holds (the reader's buffer is the only one) and the buffer shares it (C2797-2800): {@code arc_size} 1024,
     * {@code overhead_size} 0, {@code ARC_FLAG_SHARED_DATA} set; the release clears the flag (C3084).
     */
    @Test
    @DisplayName("d.24: a block below zfs_abd_scatter_min_size has linear data, which its first buffer shares")
    void linearBlockIsShared() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.read(1, 1024, ReadKind.DEMAND, true);
        assertEquals(1024, arc.size());
        assertEquals(0, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertTrue(header(arc, 1).sharedData());
        arc.release(1);
        assertFalse(header(arc, 1).sharedData());
        assertEquals(1024, arc.snapshot().state(ArcState.MRU).evictableSize());
    }

    /** With {@code zfs_abd_scatter_enabled=0} every ABD is linear (abd.c:184): the 2 KiB block is shared. */
    @Test
    @DisplayName("d.24: with zfs_abd_scatter_enabled=0 the held 2 KiB block is shared and costs its size once")
    void scatterDisabledShares() {
        ZfsArc arc = new ZfsArc(NO_SCATTER, MemoryModel.plentiful());
        arc.read(1, 2048, ReadKind.DEMAND, true);
        assertEquals(2048, arc.size());
        assertEquals(0, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertTrue(header(arc, 1).sharedData());
    }

    /**
     * A demand hit on the cached, unreferenced 2 KiB block: {@code arc_read} allocates the buffer before
     * {@code arc_access} (C6042, C6078). The first buffer cannot share scatter data either, so it is a copy:
     * {@code add_reference} takes the header off the list (esize 2048 - 2048 = 0), the copy adds 2048.
     */
    @Test
    @DisplayName("d.24: the first hold on a cached block of scatter data is a private copy")
    void firstHoldOnCachedScatterBlockIsACopy() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.read(1, 2048, ReadKind.DEMAND, false);
        assertEquals(2048, arc.size(), "the miss's copy was freed when the read returned its buffer");
        assertEquals(Outcome.HIT_MRU, arc.read(1, 2048, ReadKind.DEMAND, true));
        ArcSnapshot s = arc.snapshot();
        assertEquals(4096, s.size());
        assertEquals(4096, s.state(ArcState.MRU).size());
        assertEquals(0, s.state(ArcState.MRU).evictableSize());
        assertEquals(2048, s.stats().get(ArcStat.OVERHEAD_SIZE));
    }

    /**
     * The copy is allocated through {@code arc_get_data_buf}, so it adapts. {@code ArcConfig.small(8192, 65536,
     * 2048)}: {@code arc_c} 8192 may grow once {@code aggsum_upper_bound(&arc_size) >= arc_c - 4096}
     * (C5121-5122, growth window {@code 2 * 2048}). Read 1: the header's data adapts at size 0, the copy at 2048:
     * no growth; the copy is freed, size 2048. Read 2: the header's data adapts at 2048 (no growth), size 4096;
     * the copy adapts at 4096 >= 4096: {@code arc_c += 2048} = 10240 (C5123), below {@code arc_c_max}; the
     * state is MRU, not anon, so {@code arc_p} stays 4096 (C5126-5127). Size 6144, then 4096 once the copy is
     * freed. With scatter off no copy is allocated and {@code arc_c} stays 8192.
     */
    @Test
    @DisplayName("d.24: a buffer's private copy runs arc_adapt, which may grow arc_c")
    void privateCopyAdapts() {
        ArcConfig growing = ArcConfig.small(8192, 65536, 2048).withSublists(1);
        for (boolean scatter : new boolean[] {true, false}) {
            ZfsArc arc = new ZfsArc(growing.withTunables(growing.tunables().withAbdScatterEnabled(scatter)),
                    MemoryModel.plentiful());
            arc.read(1, 2048, ReadKind.DEMAND, false);
            arc.read(2, 2048, ReadKind.DEMAND, false);
            assertEquals(scatter ? 10240 : 8192, arc.targetSize(), "scatter " + scatter);
            assertEquals(4096, arc.mruTarget());
            assertEquals(4096, arc.size());
        }
    }

    /**
     * A write, scatter on. {@code arc_alloc_buf} (C3579-3589) makes a header without data and a buffer that
     * cannot share ({@code b_pabd == NULL}, C2793): its 512 bytes come from {@code arc_get_data_buf}: anon 512,
     * {@code overhead_size} 512, {@code compressed_size} 0. {@code arc_write_ready} checks
     * {@code zfs_abd_scatter_enabled} before sharing (C6885), not the size, so even this 512-byte block gets header
     * data of its own ({@code arc_hdr_alloc_abd}, C6903-6905): 1024, {@code compressed_size} 512;
     * {@code arc_write_done} moves the held header to MRU with both (1024). The release frees the writer's copy.
     */
    @Test
    @DisplayName("d.24: with scatter on, arc_write_ready gives a written block header data of its own")
    void writeReadyCopiesWithScatter() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.write(1, 512);
        HeaderSnapshot pending = header(arc, 1);
        assertTrue(!pending.hasData() && !pending.sharedData() && pending.refcount() == 1, pending.toString());
        assertEquals(512, arc.snapshot().state(ArcState.ANON).size());
        assertEquals(512, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertEquals(0, stat(arc, ArcStat.COMPRESSED_SIZE));

        arc.completeWrite(1, true);
        assertEquals(1024, arc.size());
        assertEquals(1024, arc.snapshot().state(ArcState.MRU).size());
        assertEquals(512, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertEquals(512, stat(arc, ArcStat.COMPRESSED_SIZE));
        assertFalse(header(arc, 1).sharedData());

        arc.release(1);
        assertEquals(512, arc.size());
        assertEquals(0, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertEquals(512, arc.snapshot().state(ArcState.MRU).evictableSize());
    }

    /**
     * The same write with scatter off: {@code arc_can_share} holds for the writer's buffer, the only one, so
     * {@code arc_share_buf} (C6914, C2960-2988) makes its data the header's: no allocation, size 512,
     * {@code compressed_size} +512, {@code overhead_size} -512 = 0, {@code ARC_FLAG_SHARED_DATA}; the release
     * leaves the data to the header (C3084).
     */
    @Test
    @DisplayName("d.24: with scatter off, arc_write_ready shares the writer's buffer (arc_share_buf)")
    void writeReadySharesWithoutScatter() {
        ZfsArc arc = new ZfsArc(NO_SCATTER, MemoryModel.plentiful());
        arc.write(1, 512);
        arc.completeWrite(1, true);
        assertEquals(512, arc.size());
        assertEquals(0, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertEquals(512, stat(arc, ArcStat.COMPRESSED_SIZE));
        assertTrue(header(arc, 1).sharedData());
        arc.release(1);
        assertEquals(512, arc.size());
        assertFalse(header(arc, 1).sharedData());
    }

    /**
     * {@code arc_write_ready} allocates with {@code ARC_HDR_USE_RESERVE} (C6904-6905): {@code arc_is_overflowing}
     * then leaves the overflow undivided (C5156-5157). Five pending 2 KiB writes (anon, unevictable) bring
     * {@code arc_size} to 10240; each {@code arc_alloc_buf} found {@code over = size - 8192 - 1024 < 0}: no wait.
     * Completing one: {@code over = 10240 - 8192 - 1024 = 1024}, below the reserve's 2048: SOME, which sets
     * {@code arc_evict_needed} and does not wait; without the reserve, 1024 >= 1024 would be SEVERE. The new
     * header data makes 12288; the writer's copy is freed: 10240. A read miss of a 1 KiB block (linear, shared:
     * one allocation) at the same size allocates without the reserve and waits once (the control).
     */
    @Test
    @DisplayName("d.2/d.24: arc_write_ready's allocation may use the overflow reserve; a read's may not")
    void writeReadyUsesTheOverflowReserve() {
        ZfsArc arc = new ZfsArc(FIXED.withEvictorRunsAfterEachOperation(false), MemoryModel.plentiful());
        for (long key = 1; key <= 5; key++) {
            arc.write(key, 2048);
        }
        assertEquals(10240, arc.size());
        arc.completeWrite(1, false);
        ArcSnapshot s = arc.snapshot();
        assertEquals(0, s.stats().get(ArcStat.EVICT_WAITS), "SOME with the reserve: no waiter");
        assertTrue(s.evictNeeded(), "SOME wakes the evictor");
        assertEquals(10240, s.size());
        assertEquals(2048, s.stats().get(ArcStat.COMPRESSED_SIZE));

        arc.read(9, 1024, ReadKind.DEMAND, false);
        assertEquals(1, arc.stat(ArcStat.EVICT_WAITS), "control: the same overflow is SEVERE for a read");
    }

    /**
     * Two holds on a linear block: the first buffer shares; the second is not {@code ARC_BUF_LAST} and the header
     * is already shared, so it is a copy (C2714-2715): 2048, {@code overhead_size} 1024. Destroying one buffer
     * frees 1024 whichever it is: a copy (C3086-3088), or the shared one, whose data the header frees
     * ({@code arc_hdr_free_abd}, C3133) before sharing the last buffer ({@code arc_share_buf}, C3141, which
     * lowers {@code overhead_size}). Either way 1024, {@code overhead_size} 0, still shared; the last release
     * clears the flag.
     */
    @Test
    @DisplayName("d.24: a second buffer on a shared linear block is a copy; destroying either returns one block")
    void secondBufferOnSharedBlock() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.read(1, 1024, ReadKind.DEMAND, true);
        arc.read(1, 1024, ReadKind.DEMAND, true);
        assertEquals(2048, arc.size());
        assertEquals(1024, stat(arc, ArcStat.OVERHEAD_SIZE));
        arc.release(1);
        assertEquals(1024, arc.size());
        assertEquals(0, stat(arc, ArcStat.OVERHEAD_SIZE));
        assertTrue(header(arc, 1).sharedData(), "the remaining buffer shares the header's data");
        arc.release(1);
        assertFalse(header(arc, 1).sharedData());
        assertEquals(1024, stat(arc, ArcStat.COMPRESSED_SIZE));
    }

    /**
     * A demand hit on a header marked {@code ARC_FLAG_PRESCIENT_PREFETCH} counts
     * {@code demand_hit_prescient_prefetch} and clears the flag (C6032-6037), before the buffer; a second
     * demand hit finds it clear and counts nothing.
     */
    @Test
    @DisplayName("arcstats: demand_hit_prescient_prefetch counts the demand hit that clears the prescient flag")
    void demandHitOnPrescientPrefetch() {
        ZfsArc arc = new ZfsArc(FIXED, MemoryModel.plentiful());
        arc.read(1, 512, ReadKind.PRESCIENT_PREFETCH, false);
        assertEquals(0, stat(arc, ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH));
        arc.read(1, 512, ReadKind.DEMAND, false);
        assertEquals(1, stat(arc, ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH));
        assertFalse(header(arc, 1).prescientPrefetch());
        arc.read(1, 512, ReadKind.DEMAND, false);
        assertEquals(1, stat(arc, ArcStat.DEMAND_HIT_PRESCIENT_PREFETCH));
    }
}
