package org.arcref.zfs;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The configuration of one ARC: sizes in bytes, the ZFS constants that assume large memories as
 * parameters (so that tiny caches can be explored exhaustively), the tunables, the logical clock's
 * rate, the multilist shape and the quirk fixes to apply. Immutable and validated on construction;
 * every rejection names the argument, the rule and the value.
 *
 * @param cMin {@code arc_c_min}: the target size never goes below it; {@code arc_c} starts here
 * @param cMax {@code arc_c_max}: the target size never goes above it
 * @param maxBlockSize {@code SPA_MAXBLOCKSIZE} (16 MiB): the largest buffer, and the smallest
 *     overflow allowance of {@code arc_is_overflowing}; a power of two in [512, 16 MiB]
 * @param growthWindow {@code 2ULL << SPA_MAXBLOCKSHIFT} (32 MiB): {@code arc_adapt} grows
 *     {@code arc_c} only while the size is within this distance of it; {@code cMin} must be at least
 *     this, as ZFS asserts
 * @param sysFree {@code arc_sys_free}: memory ZFS leaves to the system; eviction waiters are only
 *     woken by count while free memory exceeds half of it
 * @param hz ticks per second of the logical clock ({@code ARC_MINTIME = hz >> 4}); at least 16
 * @param sublists sublists per multilist ({@code zfs_multilist_num_sublists}; ZFS defaults to
 *     {@code MAX(ncpus, 4)})
 * @param seed the seed of the random sequence that picks the sublist where an eviction scan starts
 *     ({@code multilist_get_random_index}, which calls {@code random_in_range} in 2.1.1)
 * @param evictorRunsAfterEachOperation {@code true}: the evict zthr, once woken, runs to quiescence
 *     after the operation that woke it (how a real system behaves when the evictor gets a CPU);
 *     {@code false}: it runs only when asked ({@link ZfsArc#evictorStep()}) or inline for a waiter
 * @param fixes the quirk fixes to apply; empty reproduces zfs-2.1.1
 * @param tunables the ZFS tunables
 */
public record ArcConfig(long cMin, long cMax, long maxBlockSize, long growthWindow, long sysFree, int hz,
        int sublists, long seed, boolean evictorRunsAfterEachOperation, Set<QuirkFix> fixes,
        Tunables tunables) {

    /** {@code SPA_MINBLOCKSIZE}: buffer sizes are multiples of it. */
    public static final long MIN_BLOCK_SIZE = 512;
    /** {@code SPA_MAXBLOCKSIZE} of ZFS: 16 MiB. */
    public static final long ZFS_MAX_BLOCK_SIZE = 16L << 20;
    /** {@code 2ULL << SPA_MAXBLOCKSHIFT} of ZFS: 32 MiB. */
    public static final long ZFS_GROWTH_WINDOW = 32L << 20;

    /** Validates the configuration; see the class comment for each rule. */
    public ArcConfig {
        Validate.powerOfTwo("maxBlockSize", maxBlockSize);
        Validate.range("maxBlockSize", maxBlockSize, MIN_BLOCK_SIZE, ZFS_MAX_BLOCK_SIZE);
        Validate.range("growthWindow", growthWindow, MIN_BLOCK_SIZE, ZFS_GROWTH_WINDOW);
        Validate.range("cMin", cMin, growthWindow, Long.MAX_VALUE / 4);
        Validate.range("cMax", cMax, cMin, Long.MAX_VALUE / 4);
        Validate.range("sysFree", sysFree, 0, Long.MAX_VALUE / 4);
        Validate.range("hz", hz, 16, 1_000_000);
        Validate.range("sublists", sublists, 1, 1024);
        Validate.notNull("fixes", fixes);
        fixes = Collections.unmodifiableSet(fixes.isEmpty() ? EnumSet.noneOf(QuirkFix.class) : EnumSet.copyOf(fixes));
        Validate.notNull("tunables", tunables);
    }

    /**
     * The configuration ZFS computes on Linux for a machine with {@code allmem} bytes of memory
     * ({@code arc_set_limits}, {@code arc_sys_free} as in fact sheet c.3), with 4 sublists, HZ=1000
     * and the 2.1.1 tunables.
     *
     * @param allmem the memory ZFS sees, at least 64 MiB
     * @return the configuration
     */
    public static ArcConfig forMemory(long allmem) {
        Validate.range("allmem", allmem, 64L << 20, Long.MAX_VALUE / 4);
        long cMin = Math.max(allmem / 32, ZFS_GROWTH_WINDOW);
        long cMax = Math.max(allmem / 2, cMin);
        long wmark = Math.min(Math.max(4 * isqrt(allmem / 1024) * 1024, 128L << 10), 64L << 20);
        wmark += wmark * 150 / 100;
        long sysFree = 3 * wmark + allmem / 32;
        return new ArcConfig(cMin, cMax, ZFS_MAX_BLOCK_SIZE, ZFS_GROWTH_WINDOW, sysFree, 1000, 4, 0, true,
                Set.of(), Tunables.defaults());
    }

    /**
     * A small cache for exhaustive exploration: {@code SPA_MAXBLOCKSIZE} scaled down to
     * {@code maxBlockSize}, the growth window to twice that, no system reserve.
     *
     * @param cMin {@code arc_c_min} in bytes
     * @param cMax {@code arc_c_max} in bytes
     * @param maxBlockSize the largest buffer in bytes
     * @return the configuration, with 4 sublists, HZ=1000 and the 2.1.1 tunables
     */
    public static ArcConfig small(long cMin, long cMax, long maxBlockSize) {
        return new ArcConfig(cMin, cMax, maxBlockSize, 2 * maxBlockSize, 0, 1000, 4, 0, true, Set.of(),
                Tunables.defaults());
    }

    /**
     * A fixed-size cache of equal pages for replaying block traces: {@code arc_c_min = arc_c_max =
     * pages * pageSize}, so that the target stays at the requested size, and a clock of 16 ticks a
     * second, so that {@code ARC_MINTIME} is one tick: with one tick per request, a page re-read
     * two or more requests after its last recorded access moves to MFU.
     *
     * @param pages the capacity in pages, at least 2
     * @param pageSize the page size in bytes, a power of two in [512, 16 MiB]
     * @return the configuration
     */
    public static ArcConfig pages(int pages, long pageSize) {
        Validate.range("pages", pages, 2, Integer.MAX_VALUE);
        Validate.powerOfTwo("pageSize", pageSize);
        long bytes = pages * pageSize;
        return new ArcConfig(bytes, bytes, pageSize, 2 * pageSize, 0, 16, 4, 0, true, Set.of(), Tunables.defaults());
    }

    /** @param value the sublist count @return a copy with it */
    public ArcConfig withSublists(int value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, sysFree, hz, value, seed,
                evictorRunsAfterEachOperation, fixes, tunables);
    }

    /** @param value the random seed @return a copy with it */
    public ArcConfig withSeed(long value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, sysFree, hz, sublists, value,
                evictorRunsAfterEachOperation, fixes, tunables);
    }

    /** @param value {@code arc_sys_free} in bytes @return a copy with it */
    public ArcConfig withSysFree(long value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, value, hz, sublists, seed,
                evictorRunsAfterEachOperation, fixes, tunables);
    }

    /** @param value whether the evictor runs after each operation @return a copy with it */
    public ArcConfig withEvictorRunsAfterEachOperation(boolean value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, sysFree, hz, sublists, seed, value,
                fixes, tunables);
    }

    /** @param value the quirk fixes to apply @return a copy with them */
    public ArcConfig withFixes(Set<QuirkFix> value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, sysFree, hz, sublists, seed,
                evictorRunsAfterEachOperation, value, tunables);
    }

    /** @param value the tunables @return a copy with them */
    public ArcConfig withTunables(Tunables value) {
        return new ArcConfig(cMin, cMax, maxBlockSize, growthWindow, sysFree, hz, sublists, seed,
                evictorRunsAfterEachOperation, fixes, value);
    }

    /** @param fix a quirk fix @return whether this configuration applies it */
    public boolean applies(QuirkFix fix) {
        return fixes.contains(fix);
    }

    /** @return {@code ARC_MINTIME} in ticks: {@code hz >> 4} */
    public long minTimeTicks() {
        return hz >> 4;
    }

    /** @param ms milliseconds @return ZFS {@code MSEC_TO_TICK(ms)} on this clock, rounded up as ZFS does */
    public long msToTicks(long ms) {
        return (ms * hz + 999) / 1000;
    }

    private static long isqrt(long n) {
        long r = (long) Math.sqrt((double) n);
        while (r * r > n) {
            r--;
        }
        while ((r + 1) * (r + 1) <= n) {
            r++;
        }
        return r;
    }
}
