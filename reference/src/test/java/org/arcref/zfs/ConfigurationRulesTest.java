package org.arcref.zfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The configuration's arithmetic and its validation rules, one rule per test: {@code arc_set_limits} and
 * {@code arc_sys_free} on Linux (fact sheet c.3), {@code MSEC_TO_TICK}'s rounding, and the range of every tunable
 * and size that {@link ArcConfig} and {@link Tunables} reject.
 */
class ConfigurationRulesTest {

    /**
     * Expected values by hand from the C: {@code arc_c_min = MAX(allmem / 32, 2ULL << SPA_MAXBLOCKSHIFT)},
     * {@code arc_c_max = MAX(allmem / 2, arc_c_min)}; Linux's {@code min_free_kbytes = 4 * int_sqrt(lowmem_kbytes)}
     * clamped to [128, 65536] KiB, raised by {@code watermark_scale_factor}'s 150 %, and
     * {@code arc_sys_free = 3 * wmark + allmem / 32}. 4 GiB has a perfect-square KiB count (2048²), 8 GiB does not
     * (int_sqrt(8388608) = 2896), and at 1 TiB the watermark hits its 64 MiB cap.
     */
    @ParameterizedTest(name = "allmem={0}: c_min={1}, c_max={2}, sys_free={3}")
    @CsvSource({
        "4294967296, 134217728, 2147483648, 197132288",
        "8589934592, 268435456, 4294967296, 357400576",
        "1099511627776, 34359738368, 549755813888, 34863054848",
    })
    @DisplayName("arc_set_limits and arc_sys_free for a machine's memory")
    void forMemoryComputesTheLinuxLimits(long allmem, long cMin, long cMax, long sysFree) {
        ArcConfig config = ArcConfig.forMemory(allmem);
        assertEquals(cMin, config.cMin());
        assertEquals(cMax, config.cMax());
        assertEquals(sysFree, config.sysFree());
        assertEquals(ArcConfig.ZFS_MAX_BLOCK_SIZE, config.maxBlockSize());
        assertEquals(ArcConfig.ZFS_GROWTH_WINDOW, config.growthWindow());
    }

    @Test
    @DisplayName("MSEC_TO_TICK rounds up: 1 ms is one tick at 16 Hz, 1000 ms sixteen")
    void msToTicksRoundsUp() {
        ArcConfig pages = ArcConfig.pages(4, 4096);
        assertEquals(16, pages.hz());
        assertEquals(0, pages.msToTicks(0));
        assertEquals(1, pages.msToTicks(1));
        assertEquals(16, pages.msToTicks(1000));
        assertEquals(17, pages.msToTicks(1001));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
        "pMinShift, 0", "pMinShift, 64",
        "shrinkShift, 0", "shrinkShift, 64",
        "growRetrySeconds, -1", "growRetrySeconds, 86401",
        "overflowShift, -1", "overflowShift, 64",
        "evictionPct, -1", "evictionPct, 100001",
        "minPrefetchMs, -1", "minPrefetchMs, 86400001",
        "minPrescientPrefetchMs, -1", "minPrescientPrefetchMs, 86400001",
        "abdScatterMinSize, -1",
    })
    @DisplayName("every tunable outside its range is rejected, naming it")
    void tunableOutsideItsRangeIsRejected(String name, int value) {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> tunablesWith(name, value));
        assertEquals(name, e.argument());
    }

    @Test
    @DisplayName("the largest buffer is at most SPA_MAXBLOCKSIZE and the growth window at least 512 bytes")
    void blockSizeAndGrowthWindowRanges() {
        InvalidArgumentException big = assertThrows(InvalidArgumentException.class, () -> new ArcConfig(64L << 20,
                64L << 20, 32L << 20, 32L << 20, 0, 1000, 4, 0, true, Set.of(), Tunables.defaults()));
        assertEquals("maxBlockSize", big.argument());
        InvalidArgumentException window = assertThrows(InvalidArgumentException.class, () -> new ArcConfig(8192,
                8192, 512, 256, 0, 1000, 4, 0, true, Set.of(), Tunables.defaults()));
        assertEquals("growthWindow", window.argument());
        assertEquals("must be in [512, 33554432], was 256", window.rule(), "the rule apart from the argument");
        assertEquals("growthWindow must be in [512, 33554432], was 256", window.getMessage());
    }

    @Test
    @DisplayName("a page cache's page size must be a power of two")
    void pageSizeMustBeAPowerOfTwo() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> ArcConfig.pages(4, 3072));
        assertEquals("pageSize", e.argument());
    }

    /** The 2.1.1 defaults with the tunable {@code name} set to {@code value}. */
    private static Tunables tunablesWith(String name, int value) {
        Tunables d = Tunables.defaults();
        return new Tunables(
                name.equals("pMinShift") ? value : d.pMinShift(),
                name.equals("shrinkShift") ? value : d.shrinkShift(),
                d.noGrowShift(),
                name.equals("growRetrySeconds") ? value : d.growRetrySeconds(),
                name.equals("overflowShift") ? value : d.overflowShift(),
                name.equals("evictionPct") ? value : d.evictionPct(),
                d.evictBatchLimit(),
                d.pDampenerDisable(),
                name.equals("minPrefetchMs") ? value : d.minPrefetchMs(),
                name.equals("minPrescientPrefetchMs") ? value : d.minPrescientPrefetchMs(),
                d.abdScatterEnabled(),
                name.equals("abdScatterMinSize") ? value : d.abdScatterMinSize());
    }
}
