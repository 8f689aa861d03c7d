package org.arcref.conformance;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.InvalidArgumentException;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.Tunables;

/**
 * Everything a conformance run is configured by: the ARC's configuration (sizes, clock, multilist
 * shape, seed, evictor mode, tunables, quirk fixes) and the free memory the memory model starts
 * with. Immutable; every {@link Setting} can be read and replaced by name.
 *
 * @param config the ARC configuration, including its tunables and quirk fixes
 * @param freeMemory {@code arc_free_memory()} until a {@code memory} operation changes it
 */
public record ConformanceSettings(ArcConfig config, long freeMemory) {

    /** So much free memory that no pressure arises unless a trace sets it lower. */
    public static final long PLENTIFUL_MEMORY = Long.MAX_VALUE / 4;

    /** Validates the settings. */
    public ConformanceSettings {
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        if (freeMemory < 0) {
            throw new InvalidArgumentException(Setting.ARC_FREE_MEMORY.zfsName(), "must be >= 0, was " + freeMemory);
        }
    }

    /**
     * @return the settings of a run that names none: {@code ArcConfig.small(8 KiB, 64 KiB, 2 KiB)}
     *     (4 sublists, HZ=1000, evictor after each operation, the 2.1.1 tunables, no fixes) and
     *     plentiful free memory
     */
    public static ConformanceSettings defaults() {
        return new ConformanceSettings(ArcConfig.small(8192, 65536, 2048), PLENTIFUL_MEMORY);
    }

    /**
     * @param setting a setting
     * @param value its new value (booleans as 0 or 1)
     * @return a copy with it
     * @throws IllegalArgumentException if the resulting configuration is invalid, naming the argument,
     *     the rule and the value
     */
    public ConformanceSettings with(Setting setting, long value) {
        return with(Map.of(setting, value));
    }

    /**
     * Replaces several settings at once, so that related limits (such as {@code arc_c_min} and
     * {@code arc_c_max}) are validated together.
     *
     * @param changes the settings to replace and their new values (booleans as 0 or 1)
     * @return a copy with them
     * @throws InvalidArgumentException if the resulting configuration is invalid, naming the setting
     *     by its {@link Setting#zfsName()}, the rule and the value
     */
    public ConformanceSettings with(Map<Setting, Long> changes) {
        try {
            return build(changes);
        } catch (InvalidArgumentException e) {
            for (Setting s : Setting.values()) {
                if (s.field().equals(e.argument())) {
                    throw new InvalidArgumentException(s.zfsName(), e.rule());
                }
            }
            throw e;
        }
    }

    /** {@link #with(Map)}, the configuration records naming a rejected value by their component name. */
    private ConformanceSettings build(Map<Setting, Long> changes) {
        Map<Setting, Long> v = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            v.put(s, s.get(this));
        }
        v.putAll(changes);
        Tunables t = new Tunables(integer(v, Setting.ARC_P_MIN_SHIFT), integer(v, Setting.ARC_SHRINK_SHIFT),
                integer(v, Setting.ARC_NO_GROW_SHIFT), integer(v, Setting.ARC_GROW_RETRY),
                integer(v, Setting.ZFS_ARC_OVERFLOW_SHIFT), integer(v, Setting.ZFS_ARC_EVICTION_PCT),
                integer(v, Setting.ZFS_ARC_EVICT_BATCH_LIMIT), v.get(Setting.ZFS_ARC_P_DAMPENER_DISABLE) != 0,
                integer(v, Setting.ARC_MIN_PREFETCH_MS), integer(v, Setting.ARC_MIN_PRESCIENT_PREFETCH_MS),
                v.get(Setting.ZFS_ABD_SCATTER_ENABLED) != 0, integer(v, Setting.ZFS_ABD_SCATTER_MIN_SIZE));
        ArcConfig c = new ArcConfig(v.get(Setting.ARC_C_MIN), v.get(Setting.ARC_C_MAX),
                v.get(Setting.SPA_MAXBLOCKSIZE), v.get(Setting.GROWTH_WINDOW), v.get(Setting.ARC_SYS_FREE),
                integer(v, Setting.HZ), integer(v, Setting.SUBLISTS), v.get(Setting.RANDOM_SEED),
                v.get(Setting.EVICTOR_RUNS_AFTER_EACH_OPERATION) != 0, config.fixes(), t);
        return new ConformanceSettings(c, v.get(Setting.ARC_FREE_MEMORY));
    }

    /** @param fixes the quirk fixes to apply @return a copy with them */
    public ConformanceSettings withFixes(Set<QuirkFix> fixes) {
        return new ConformanceSettings(config.withFixes(fixes), freeMemory);
    }

    /** @return a fresh memory model that starts with {@link #freeMemory()} */
    public AdjustableMemory memory() {
        return new AdjustableMemory(freeMemory);
    }

    private static int integer(Map<Setting, Long> v, Setting s) {
        long value = v.get(s);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new InvalidArgumentException(s.zfsName(), "must be a 32-bit integer, was " + value);
        }
        return (int) value;
    }
}
