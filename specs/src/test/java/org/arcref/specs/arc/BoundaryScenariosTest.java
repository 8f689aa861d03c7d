package org.arcref.specs.arc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.arcref.differential.Lockstep;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ReadKind;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Comparisons of zfs-2.1.1's {@code arc.c} at exactly their boundary values, where a strict comparison and a
 * non-strict one part, on the spec and (by D1, {@link Lockstep}) on the concurrent ARC in deterministic mode. The
 * expected values are derived by hand from the C (line numbers of {@code arc.c} at zfs-2.1.1); random operation
 * sequences (D1's property) reach these equalities too rarely to pin them.
 */
class BoundaryScenariosTest {

    private static Operation read(long key, long size, boolean hold) {
        return new Operation.Read(key, size, ReadKind.DEMAND, hold);
    }

    /*
     * ArcConfig.small(8192, 65536, 1024): arc_c = arc_c_min = 8192, arc_p = 4096, growth window 2048, no quirk
     * fixes. Twelve demand misses of 1024 bytes, unheld (key k is read when arc_size = (k-1) * 1024):
     * - arc_adapt (5068) grows arc_c by 1024, and arc_p with it (anon state, not clamped, 5121-5126), once
     *   arc_size >= arc_c - 2048 (5119): first at k = 7 (6144 >= 6144), then at every later read, as arc_size and
     *   arc_c stay 2048 apart; arc_c = 8192 + 6 * 1024 = 14336.
     * - arc_get_data_impl (5335-5340) adds size to arc_p when arc_size (after the add) < arc_c and anon + MRU >
     *   arc_p: at k = 5 and 6 (5120 > 4096, 6144 > 5120); from k = 7 on arc_adapt's growth already took arc_p to
     *   arc_size. So arc_p = 6144 + 6 * 1024 = 12288 = arc_size.
     * arc_reduce_target_size(96) (4749): c = MIN(14336, 12288) = 12288 (4761); 12288 > 96 and 12192 > 8192 (4763),
     * so arc_c = 12192 (4764) and arc_p -= 12288 >> 7 = 96, giving 12192 (4765); arc_p > arc_c is false (4766), so
     * arc_p stays 12192. A non-strict test would halve it to 6096.
     */
    @Test
    @DisplayName("arc_reduce_target_size keeps arc_p when its shrink lands exactly on the new arc_c")
    void shrinkLandingArcPOnArcCKeepsIt() {
        Lockstep both = new Lockstep(ArcConfig.small(8192, 65536, 1024));
        for (long key = 1; key <= 12; key++) {
            both.apply(read(key, 1024, false));
        }
        ArcSnapshot grown = both.snapshot();
        assertEquals(14336, grown.c());
        assertEquals(12288, grown.p());
        assertEquals(12288, grown.size());
        both.apply(new Operation.Shrink(96));
        assertEquals(12192, both.snapshot().c());
        assertEquals(12192, both.snapshot().p(), "arc_p == arc_c after the shrink is not > arc_c: arc_p stays");
    }

    /*
     * ArcConfig.small(8192, 8192, 1024) without the evictor after each operation: arc_c = 8192 for good,
     * arc_sys_free = 0; SPA_MAXBLOCKSIZE is the configuration's 1024, so arc_is_overflowing (5139) has overflow =
     * 1024, over = arc_size - 8192 - 512, SEVERE when over >= 512, that is arc_size >= 9216 before an allocation.
     * Set-up: keys 100 and 101 (512 each, unheld: evictable) then 15 held blocks of 512 and a held one of 1024:
     * arc_size 9728 (the last read found 8704: SOME, which only sets arc_evict_needed).
     * The read of key 200 (512) finds 9728: SEVERE. Its waiter's count is 0 + 512 * 200 / 100 = 1024 (5299, 5243).
     * Pass 1 of arc_evict (4570): the MRU target is MIN(9728 - 8192, 9728 - arc_p) = 1536 (arc_p 7680), MRU's
     * evictable 1024: both unheld blocks go, arc_evict_count reaches 1024 = the waiter's count in
     * arc_evict_state_impl; the MRU ghost target (9728 - 1024 + 1024 - 8192 > 0) destroys their two ghosts. At the
     * end (4906) evicted > 0 and arc_size 8704 > arc_c: eviction is still needed.
     * - Free memory 1 > arc_sys_free / 2 = 0 (4130): the waiter was released by count during pass 1; the read
     *   returns after one pass with arc_evict_needed still TRUE.
     * - Free memory 0, exactly arc_sys_free / 2: no release by count; pass 2 evicts nothing, so arc_evict_needed
     *   becomes FALSE and every waiter is released (4906-4917): two passes, arc_evict_needed FALSE.
     */
    @Test
    @DisplayName("a waiter is released by count only while free memory is above arc_sys_free / 2, not at it")
    void releaseByCountNeedsFreeMemoryAboveHalfTheReserve() {
        ArcSnapshot atHalf = severeReadWithFreeMemory(0);
        assertEquals(2, atHalf.stats().get(ArcStat.EVICTOR_RUNS), "at arc_sys_free / 2 the waiter waits for pass 2");
        assertFalse(atHalf.evictNeeded(), "the pass that evicted nothing ended eviction");
        ArcSnapshot above = severeReadWithFreeMemory(1);
        assertEquals(1, above.stats().get(ArcStat.EVICTOR_RUNS), "one byte above, released by count in pass 1");
        assertTrue(above.evictNeeded(), "released by count while eviction is still needed");
        for (ArcSnapshot after : new ArcSnapshot[] {atHalf, above}) {
            assertEquals(1024, after.evictCount());
            assertEquals(9216, after.size());
        }
    }

    /*
     * ArcConfig.small(8192, 8192, 1024) with arc_sys_free = 4096: arc_c = arc_c_min = 8192 for good. Eight reads of
     * 1024 and one of 512 leave arc_size 8704 > arc_c, below the SOME threshold (8192 + 512 before the last read):
     * nobody asked for eviction. Free memory 4095 makes arc_available_memory() -1 < 0: arc_reap_cb runs.
     * - 2.1.1 (5005-5008): to_free = (8192 >> 7) - (-1) = 65 > 0; arc_reduce_target_size(65) finds 8192 - 65 not
     *   above arc_c_min, sets arc_c = arc_c_min, and as 8704 > arc_c (4774) asks for eviction: the evictor runs.
     * - With the #13794 fix: can_free = arc_c - arc_c_min = 0 is not > 0, so to_free = 0, which is not > 0: no
     *   call, no eviction, arc_size stays 8704.
     */
    @Test
    @DisplayName("with the #13794 fix a reap at arc_c_min frees nothing; 2.1.1's reap asks for eviction")
    void reapAtArcCMinFreesOnlyWithout13794Fix() {
        ArcSnapshot fixed = reapAtArcCMin(Set.of(QuirkFix.REAP_ABOVE_C_MIN_13794));
        assertFalse(fixed.evictNeeded());
        assertEquals(0, fixed.stats().get(ArcStat.EVICTOR_RUNS), "the fixed reap asked for eviction");
        assertEquals(8704, fixed.size());
        ArcSnapshot unfixed = reapAtArcCMin(Set.of());
        assertEquals(1, unfixed.stats().get(ArcStat.EVICTOR_RUNS), "2.1.1's reap did not ask for eviction");
        assertTrue(unfixed.size() <= 8192, "2.1.1's reap left arc_size " + unfixed.size());
    }

    private static ArcSnapshot reapAtArcCMin(Set<QuirkFix> fixes) {
        Lockstep both = new Lockstep(ArcConfig.small(8192, 8192, 1024).withSysFree(4096).withFixes(fixes));
        for (long key = 1; key <= 8; key++) {
            both.apply(read(key, 1024, false));
        }
        both.apply(read(9, 512, false));
        assertEquals(8704, both.snapshot().size());
        assertFalse(both.snapshot().evictNeeded(), "set-up: below the SOME threshold nobody asked for eviction");
        both.apply(new Operation.Memory(4095));
        assertEquals(Outcome.REAPED, both.apply(new Operation.Reap()));
        return both.snapshot();
    }

    private static ArcSnapshot severeReadWithFreeMemory(long free) {
        Lockstep both = new Lockstep(ArcConfig.small(8192, 8192, 1024).withEvictorRunsAfterEachOperation(false));
        both.apply(read(100, 512, false));
        both.apply(read(101, 512, false));
        for (long key = 1; key <= 15; key++) {
            both.apply(read(key, 512, true));
        }
        both.apply(read(16, 1024, true));
        assertEquals(9728, both.snapshot().size());
        assertEquals(7680, both.snapshot().p());
        both.apply(new Operation.Memory(free));
        both.apply(read(200, 512, false));
        assertEquals(1, both.snapshot().stats().get(ArcStat.EVICT_WAITS), "the read of key 200 waited");
        return both.snapshot();
    }
}
