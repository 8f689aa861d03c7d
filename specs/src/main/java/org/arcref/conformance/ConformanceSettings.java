package org.arcref.conformance;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcArguments;
import org.arcref.zfs.ArcConfig;
import org.arcref.zfs.ArcOperations;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.InvalidArgumentException;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.Tunables;
import org.arcref.zfs.Zfs22Arc;
import org.arcref.zfs.ZfsArc;
import org.arcref.zfs.ZfsEngine;

/**
 * Everything a conformance run is configured by: the engine of the spec it runs, the ARC's configuration (sizes,
 * clock, multilist shape, seed, evictor mode, tunables, quirk fixes), zfs-2.2.0's two settings of its own, and the
 * free memory the memory model starts with. Immutable; every {@link Setting} of the engine can be read and replaced
 * by name.
 *
 * @param engine the engine: zfs-2.1.1's ({@link ZfsArc}) or zfs-2.2.0's ({@link Zfs22Arc})
 * @param config the ARC configuration, including its tunables and quirk fixes (the engine's)
 * @param oldMaxBlockSize {@code SPA_OLD_MAXBLOCKSIZE} (zfs-2.2.0's engine)
 * @param metaBalance {@code zfs_arc_meta_balance} (zfs-2.2.0's engine)
 * @param freeMemory {@code arc_free_memory()} until a {@code memory} operation changes it
 */
public record ConformanceSettings(ZfsEngine engine, ArcConfig config, long oldMaxBlockSize, int metaBalance,
        long freeMemory) {


    /** So much free memory that no pressure arises unless a trace sets it lower. */
    public static final long PLENTIFUL_MEMORY = Long.MAX_VALUE / 4;

    /** Validates the settings. */
    public ConformanceSettings {
        if (config == null || engine == null) {
            throw new IllegalArgumentException("engine and config must not be null");
        }
        ArcArguments.requireEngineFixes(engine, config.fixes());
        if (freeMemory < 0) {
            throw new InvalidArgumentException(Setting.ARC_FREE_MEMORY.zfsName(), "must be >= 0, was " + freeMemory);
        }
    }

    /**
     * Settings of zfs-2.1.1's engine.
     *
     * @param config the ARC configuration
     * @param freeMemory the free memory
     */
    public ConformanceSettings(ArcConfig config, long freeMemory) {
        this(ZfsEngine.V2_1_1, config, Zfs22Arc.ZFS_OLD_MAX_BLOCK_SIZE, Zfs22Arc.ZFS_META_BALANCE, freeMemory);
    }

    /**
     * @param engine an engine
     * @return {@link #defaults()} for that engine (zfs-2.2.0's with ZFS's {@code SPA_OLD_MAXBLOCKSIZE} and
     *     {@code zfs_arc_meta_balance})
     */
    public static ConformanceSettings defaults(ZfsEngine engine) {
        ConformanceSettings d = defaults();
        return new ConformanceSettings(engine, d.config(), d.oldMaxBlockSize(), d.metaBalance(), d.freeMemory());
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
        for (Setting s : changes.keySet()) {
            if (!s.appliesTo(engine)) {
                throw new InvalidArgumentException(s.zfsName(), "is not a setting of the zfs-" + engine
                        + " engine this run uses (see docs/conformance.md), was given " + changes.get(s));
            }
        }
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
        return new ConformanceSettings(engine, c, v.get(Setting.SPA_OLD_MAXBLOCKSIZE),
                integer(v, Setting.ZFS_ARC_META_BALANCE), v.get(Setting.ARC_FREE_MEMORY));
    }

    /** @param fixes the quirk fixes to apply, the engine's @return a copy with them */
    public ConformanceSettings withFixes(Set<QuirkFix> fixes) {
        return new ConformanceSettings(engine, config.withFixes(fixes), oldMaxBlockSize, metaBalance, freeMemory);
    }

    /**
     * @return a fresh ARC of the engine, reporting each eviction to {@code probe}
     * @param probe told of each header evicted or deleted
     */
    public ArcOperations newArc(Consumer<Eviction> probe) {
        return engine == ZfsEngine.V2_2_0
                ? new Zfs22Arc(config, oldMaxBlockSize, metaBalance, memory(), probe)
                : new ZfsArc(config, memory(), probe);
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
