package org.arcref.conformance;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import org.arcref.trace.Decimal;
import org.arcref.trace.Excerpt;
import org.arcref.trace.Spelling;
import org.arcref.zfs.InvalidArgumentException;
import org.arcref.zfs.ZfsEngine;

/**
 * One named setting of a conformance run: a field of {@link org.arcref.zfs.ArcConfig}, of
 * {@link org.arcref.zfs.Tunables}, or the memory model's initial free memory. The name is the ZFS
 * name where one exists; it is the field name in the conformance header and the name accepted by
 * {@code name=value} in a trace's {@code # conform:} lines and on the command line. Booleans are
 * held as 0 or 1.
 */
public enum Setting {
    /** {@code arc_c_min}. */
    ARC_C_MIN("arc_c_min", "cMin", Section.CONFIG, Kind.U64, s -> s.config().cMin()),
    /** {@code arc_c_max}. */
    ARC_C_MAX("arc_c_max", "cMax", Section.CONFIG, Kind.U64, s -> s.config().cMax()),
    /** {@code SPA_MAXBLOCKSIZE}, scaled down for small caches. */
    SPA_MAXBLOCKSIZE("spa_maxblocksize", "maxBlockSize", Section.CONFIG, Kind.U64, s -> s.config().maxBlockSize()),
    /** {@code 2ULL << SPA_MAXBLOCKSHIFT}: the window below {@code arc_c} in which {@code arc_adapt} grows it. */
    GROWTH_WINDOW("growth_window", "growthWindow", Section.CONFIG, Kind.U64, s -> s.config().growthWindow()),
    /** {@code arc_sys_free}. */
    ARC_SYS_FREE("arc_sys_free", "sysFree", Section.CONFIG, Kind.U64, s -> s.config().sysFree()),
    /** Ticks per second of the logical clock ({@code hz}). */
    HZ("hz", "hz", Section.CONFIG, Kind.INT, s -> s.config().hz()),
    /** {@code zfs_multilist_num_sublists}. */
    SUBLISTS("zfs_multilist_num_sublists", "sublists", Section.CONFIG, Kind.INT, s -> s.config().sublists()),
    /** The seed of the sublist picker ({@code multilist_get_random_index}). */
    RANDOM_SEED("random_seed", "seed", Section.CONFIG, Kind.SIGNED, s -> s.config().seed()),
    /** Whether the evict zthr runs to quiescence after each operation. */
    EVICTOR_RUNS_AFTER_EACH_OPERATION("evictor_runs_after_each_operation", "evictorRunsAfterEachOperation",
            Section.CONFIG, Kind.BOOLEAN,
            s -> s.config().evictorRunsAfterEachOperation() ? 1 : 0),
    /** {@code arc_free_memory()} before the first {@code memory} operation. */
    ARC_FREE_MEMORY("arc_free_memory", "freeMemory", Section.CONFIG, Kind.U64, ConformanceSettings::freeMemory),
    /**
     * {@code SPA_OLD_MAXBLOCKSIZE} (128 KiB): zfs-2.2.0's {@code arc_adapt} grows {@code arc_c} by at least this
     * much. zfs-2.2.0's engine only.
     */
    SPA_OLD_MAXBLOCKSIZE("spa_old_maxblocksize", "oldMaxBlockSize", Section.CONFIG, Kind.U64,
            ConformanceSettings::oldMaxBlockSize, ZfsEngine.V2_2_0),
    /** {@code arc_p_min_shift}. */
    ARC_P_MIN_SHIFT("arc_p_min_shift", "pMinShift", Section.TUNABLES, Kind.INT, s -> s.config().tunables().pMinShift(),
            ZfsEngine.V2_1_1),
    /** {@code arc_shrink_shift}. */
    ARC_SHRINK_SHIFT("arc_shrink_shift", "shrinkShift",
            Section.TUNABLES, Kind.INT, s -> s.config().tunables().shrinkShift()),
    /** {@code arc_no_grow_shift}. */
    ARC_NO_GROW_SHIFT("arc_no_grow_shift", "noGrowShift",
            Section.TUNABLES, Kind.INT, s -> s.config().tunables().noGrowShift()),
    /** {@code arc_grow_retry}, in seconds. */
    ARC_GROW_RETRY("arc_grow_retry", "growRetrySeconds",
            Section.TUNABLES, Kind.INT, s -> s.config().tunables().growRetrySeconds()),
    /** {@code zfs_arc_overflow_shift}. */
    ZFS_ARC_OVERFLOW_SHIFT("zfs_arc_overflow_shift", "overflowShift", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().overflowShift()),
    /** {@code zfs_arc_eviction_pct}. */
    ZFS_ARC_EVICTION_PCT("zfs_arc_eviction_pct", "evictionPct", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().evictionPct()),
    /** {@code zfs_arc_evict_batch_limit}. */
    ZFS_ARC_EVICT_BATCH_LIMIT("zfs_arc_evict_batch_limit", "evictBatchLimit", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().evictBatchLimit()),
    /** {@code zfs_arc_p_dampener_disable}. */
    ZFS_ARC_P_DAMPENER_DISABLE("zfs_arc_p_dampener_disable", "pDampenerDisable", Section.TUNABLES, Kind.BOOLEAN,
            s -> s.config().tunables().pDampenerDisable() ? 1 : 0, ZfsEngine.V2_1_1),
    /** {@code arc_min_prefetch_ms}. */
    ARC_MIN_PREFETCH_MS("arc_min_prefetch_ms", "minPrefetchMs", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().minPrefetchMs()),
    /** {@code arc_min_prescient_prefetch_ms}. */
    ARC_MIN_PRESCIENT_PREFETCH_MS("arc_min_prescient_prefetch_ms", "minPrescientPrefetchMs", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().minPrescientPrefetchMs()),
    /**
     * {@code zfs_arc_meta_balance} (500): {@code arc_evict_adj} divides data ghost hits by {@code balance / 100}
     * when it moves {@code arc_meta}. zfs-2.2.0's engine only.
     */
    ZFS_ARC_META_BALANCE("zfs_arc_meta_balance", "metaBalance", Section.TUNABLES, Kind.INT,
            ConformanceSettings::metaBalance, ZfsEngine.V2_2_0),
    /** {@code zfs_abd_scatter_enabled}. */
    ZFS_ABD_SCATTER_ENABLED("zfs_abd_scatter_enabled", "abdScatterEnabled", Section.TUNABLES, Kind.BOOLEAN,
            s -> s.config().tunables().abdScatterEnabled() ? 1 : 0),
    /** {@code zfs_abd_scatter_min_size}. */
    ZFS_ABD_SCATTER_MIN_SIZE("zfs_abd_scatter_min_size", "abdScatterMinSize", Section.TUNABLES, Kind.INT,
            s -> s.config().tunables().abdScatterMinSize());

    /** Where a setting is written in the conformance header. */
    public enum Section {
        /** The {@code config} object. */
        CONFIG,
        /** The {@code tunables} object. */
        TUNABLES;

        /** @return the header field that holds the section */
        public String field() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How a setting's value is written and parsed. */
    public enum Kind {
        /** A u64, written as an unsigned decimal integer. */
        U64,
        /** A signed 64-bit integer. */
        SIGNED,
        /** A 32-bit signed integer. */
        INT,
        /** {@code true} or {@code false}, held as 1 or 0. */
        BOOLEAN
    }

    private final String zfsName;
    private final String field;
    private final Section section;
    private final Kind kind;
    private final ToLongFunction<ConformanceSettings> getter;
    private final ZfsEngine onlyEngine;

    Setting(String zfsName, String field, Section section, Kind kind, ToLongFunction<ConformanceSettings> getter) {
        this(zfsName, field, section, kind, getter, null);
    }

    Setting(String zfsName, String field, Section section, Kind kind, ToLongFunction<ConformanceSettings> getter,
            ZfsEngine onlyEngine) {
        this.zfsName = zfsName;
        this.field = field;
        this.section = section;
        this.kind = kind;
        this.getter = getter;
        this.onlyEngine = onlyEngine;
    }

    /**
     * @param engine an engine
     * @return whether the engine has this setting: the conformance header of its runs lists exactly these
     */
    public boolean appliesTo(ZfsEngine engine) {
        return onlyEngine == null || onlyEngine == engine;
    }

    /** @return the name in the header and in {@code name=value} */
    public String zfsName() {
        return zfsName;
    }

    /**
     * @return the name of the record component that holds it ({@code cMin} of {@link org.arcref.zfs.ArcConfig},
     *     {@code pMinShift} of {@link org.arcref.zfs.Tunables}, {@code freeMemory} of {@link ConformanceSettings}),
     *     as their validation names it
     */
    public String field() {
        return field;
    }

    /** @return the header section */
    public Section section() {
        return section;
    }

    /** @return the value's kind */
    public Kind kind() {
        return kind;
    }

    /** @param settings settings @return this setting's value in them (booleans as 0 or 1) */
    public long get(ConformanceSettings settings) {
        return getter.applyAsLong(settings);
    }

    /**
     * @param name a setting's name
     * @return the setting
     * @throws IllegalArgumentException naming the unknown name and the known ones
     */
    public static Setting named(String name) {
        for (Setting s : values()) {
            if (s.zfsName.equals(name)) {
                return s;
            }
        }
        List<String> known = Arrays.stream(values()).map(Setting::zfsName).toList();
        throw new IllegalArgumentException("setting must be one of " + String.join(", ", known) + ", was "
                + Excerpt.of(name) + Spelling.closest(name, known).map(c -> "; did you mean " + c + "?").orElse(""));
    }

    /**
     * Parses a value written as text (in {@code name=value}).
     *
     * @param text the value: a decimal integer in ASCII digits, or {@code true}/{@code false} (or {@code 1}/{@code 0},
     *     as ZFS module parameters are written) for a boolean
     * @return the value, booleans as 0 or 1
     * @throws IllegalArgumentException naming the setting, the rule and the text; a u64 of 2^63 or more, which no
     *     setting of the spec accepts, is named as the unsigned value it is
     */
    public long parse(String text) {
        try {
            return switch (kind) {
                case U64 -> belowTwoTo63(Decimal.parseUnsignedLong(text), text);
                case SIGNED -> Decimal.parseLong(text);
                case INT -> Decimal.parseInt(text);
                case BOOLEAN -> switch (text) {
                    case "true", "1" -> 1;
                    case "false", "0" -> 0;
                    default -> throw new NumberFormatException();
                };
            };
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(zfsName, "must be " + describe() + ", was " + Excerpt.of(text));
        }
    }

    /**
     * Converts a value read from JSON.
     *
     * @param json a {@link BigInteger} or a {@link Boolean}, as {@link JsonParser} returns them
     * @return the value, booleans as 0 or 1
     * @throws IllegalArgumentException naming the setting, the rule and the value
     */
    public long fromJson(Object json) {
        if (kind == Kind.BOOLEAN) {
            if (json instanceof Boolean b) {
                return b ? 1 : 0;
            }
        } else if (json instanceof BigInteger i) {
            return parse(i.toString());
        }
        throw new InvalidArgumentException(zfsName, "must be " + describe() + ", was " + JsonWriter.write(json));
    }

    /** @param value a value of this setting @return it as a JSON value */
    public Object toJson(long value) {
        return switch (kind) {
            case U64 -> new BigInteger(Long.toUnsignedString(value));
            case SIGNED, INT -> value;
            case BOOLEAN -> value != 0;
        };
    }

    private long belowTwoTo63(long value, String text) {
        if (value < 0) {
            throw new InvalidArgumentException(zfsName, "must be below 2^63 (9223372036854775808) in the spec, was "
                    + Excerpt.of(text));
        }
        return value;
    }

    private String describe() {
        return switch (kind) {
            case U64 -> "an unsigned 64-bit integer in ASCII digits";
            case SIGNED -> "a signed 64-bit integer in ASCII digits";
            case INT -> "a 32-bit integer in ASCII digits";
            case BOOLEAN -> "true, false, 1 or 0";
        };
    }
}
