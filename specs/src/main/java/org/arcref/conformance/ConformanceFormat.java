package org.arcref.conformance;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.arcref.trace.Excerpt;
import org.arcref.zfs.Arc22Snapshot;
import org.arcref.zfs.ArcSnapshot;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.ArcState;
import org.arcref.zfs.ArcStats;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Eviction;
import org.arcref.zfs.HeaderSnapshot;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.StateSnapshot;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;

/**
 * The conformance format: JSON Lines, one header line, then one line per operation. This class builds both kinds of line as ordered maps for {@link JsonWriter} and reads a
 * header back into {@link ConformanceSettings}. {@code docs/conformance.md} describes every field.
 *
 * <p>Numbers are JSON integers, exact: u64 quantities (sizes, targets, counters) as unsigned
 * decimals, keys and the clock as signed decimals. Field order is fixed.
 *
 * <p>Versioning: each engine's lines have a version of their own ({@link #version(ZfsEngine)}); a change that adds,
 * removes, renames or reinterprets a field of an engine's lines, or changes what an operation does to one, increments
 * that engine's version, so the other engine's outputs stay byte-identical; readers reject a version other than the
 * one of the engine the header's {@code zfs} names.
 */
public final class ConformanceFormat {

    /** The {@code format} field of every header. */
    public static final String NAME = "arcref-conformance";
    /**
     * The {@code version} of zfs-2.1.1's engine's lines: 5 since the header carries {@code revision} (version 3
     * had none).
     */
    private static final int VERSION_21 = 5;
    /**
     * The {@code version} of zfs-2.2.0's engine's lines: 5 since the header carries {@code revision} (version 4
     * had none, version 3 neither the uncached state nor {@code uncached_hits}).
     */
    private static final int VERSION_22 = 5;
    /** The header field naming the engine's {@link BehaviourRevision}. */
    public static final String REVISION = "revision";

    /** The fields of an {@code evicted} element, in order. */
    private static final List<String> EVICTION_FIELDS = List.of("key", "size", "from", "to");
    /** The fields of an {@code evicted} element of zfs-2.2.0's engine, in order. */
    private static final List<String> EVICTION_FIELDS_22 = List.of("key", "type", "size", "from", "to");
    /** The fields of a {@code headers} element, in order. */
    private static final List<String> HEADER_FIELDS = List.of("key", "state", "size", "has_data", "shared_data",
            "refcount", "prefetch", "prescient_prefetch", "arc_access", "sublist", "linked");
    /** The fields of a {@code headers} element of zfs-2.2.0's engine, in order. */
    private static final List<String> HEADER_FIELDS_22 = List.of("key", "type", "state", "size", "has_data",
            "shared_data", "refcount", "prefetch", "prescient_prefetch", "arc_access", "sublist", "linked");

    private ConformanceFormat() {
    }

    /**
     * @param engine an engine
     * @return the {@code version} field of its outputs, which this code writes and reads
     */
    public static int version(ZfsEngine engine) {
        return switch (engine) {
            case V2_1_1 -> VERSION_21;
            case V2_2_0 -> VERSION_22;
        };
    }

    /**
     * @param traceName the trace's name ({@code builtin:NAME} or a path)
     * @param traceSha256 the trace's {@link ConformanceTrace#sha256()}
     * @param settings the settings the trace runs under
     * @param headers whether each operation line lists every header
     * @return the header line's fields
     */
    public static Map<String, Object> header(String traceName, String traceSha256, ConformanceSettings settings,
            boolean headers) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("format", NAME);
        h.put("version", version(settings.engine()));
        h.put("zfs", ZfsRelease.followedBy(settings.engine(), settings.config().fixes()).version());
        h.put(REVISION, BehaviourRevision.current(settings.engine()));
        h.put("trace", traceName);
        h.put("trace_sha256", traceSha256);
        h.put("headers", headers);
        for (Setting.Section section : Setting.Section.values()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (Setting s : Setting.values()) {
                if (s.section() == section && s.appliesTo(settings.engine())) {
                    fields.put(s.zfsName(), s.toJson(s.get(settings)));
                }
            }
            h.put(section.field(), fields);
        }
        Map<String, Object> fixes = new LinkedHashMap<>();
        for (QuirkFix f : QuirkFix.values()) {
            if (f.engine() == settings.engine()) {
                fixes.put(f.name(), settings.config().applies(f));
            }
        }
        h.put("fixes", fixes);
        return h;
    }

    /**
     * The field paths of the format, as {@code --only} and {@code --ignore} of {@code arc verify} name them: a
     * field of a nested object after its parent and a dot ({@code stats.hits}, {@code states.mru.esize}), a field
     * of a list's elements after the list's name and a dot, without an index ({@code headers.arc_access}), and
     * every object and list itself ({@code stats}, {@code headers}). Header and operation lines together; the
     * name {@code headers} is the header's boolean and the operation lines' list.
     *
     * @return every field path of either engine's lines, zfs-2.1.1's first, each in the order the lines write it
     */
    public static Set<String> fieldPaths() {
        Set<String> paths = new LinkedHashSet<>();
        for (ZfsEngine e : ZfsEngine.values()) {
            paths.addAll(fieldPaths(e));
        }
        return paths;
    }

    /**
     * @param engine an engine
     * @return the field paths of its runs' lines ({@link #fieldPaths()}), in the order the lines write them
     */
    public static Set<String> fieldPaths(ZfsEngine engine) {
        boolean v22 = engine == ZfsEngine.V2_2_0;
        Set<String> paths = new LinkedHashSet<>(List.of("format", "version", "zfs", REVISION, "trace",
                "trace_sha256", "headers"));
        for (Setting s : Setting.values()) {
            if (s.appliesTo(engine)) {
                paths.add(s.section().field());
                paths.add(s.section().field() + "." + s.zfsName());
            }
        }
        paths.add("fixes");
        for (QuirkFix f : QuirkFix.of(engine)) {
            paths.add("fixes." + f.name());
        }
        paths.addAll(List.of("index", "line", "op", "outcome", "evicted"));
        for (String f : v22 ? EVICTION_FIELDS_22 : EVICTION_FIELDS) {
            paths.add("evicted." + f);
        }
        paths.addAll(v22 ? List.of("tick", "arc_c", "arc_meta", "arc_pd", "arc_pm", "arc_size", "states")
                : List.of("tick", "arc_c", "arc_p", "arc_size", "states"));
        for (ArcState s : ArcState.of(engine)) {
            String state = "states." + s.zfsName();
            paths.add(state);
            for (String prefix : v22 ? List.of(state + ".data", state + ".metadata") : List.of(state)) {
                paths.add(prefix);
                paths.add(prefix + ".size");
                paths.add(prefix + ".esize");
            }
        }
        if (v22) {
            paths.add("ghost_hits");
            for (ArcState ghost : List.of(ArcState.MRU_GHOST, ArcState.MFU_GHOST)) {
                paths.add("ghost_hits." + ghost.zfsName());
                for (BufType t : BufType.values()) {
                    paths.add("ghost_hits." + ghost.zfsName() + "." + t.zfsName());
                }
            }
        }
        paths.addAll(List.of("arc_evict_count", "arc_evict_needed", "arc_need_free", "arc_no_grow", "arc_warm",
                "arc_growtime", "waiters", "stats"));
        for (ArcStat s : ArcStat.of(engine)) {
            paths.add("stats." + s.kstatName());
        }
        for (String f : v22 ? HEADER_FIELDS_22 : HEADER_FIELDS) {
            paths.add("headers." + f);
        }
        return paths;
    }

    /**
     * @param header a parsed header line
     * @return the release its {@code zfs} field names
     * @throws IllegalArgumentException if it names none
     */
    public static ZfsRelease release(Map<String, Object> header) {
        if (!(header.get("zfs") instanceof String zfs) || ZfsRelease.of(zfs).isEmpty()) {
            throw new IllegalArgumentException("header field zfs must be one of " + ZfsRelease.versions() + ", was "
                    + describe(header.get("zfs")));
        }
        return ZfsRelease.of(zfs).get();
    }

    /**
     * Reads the settings back from a header.
     *
     * @param header a parsed header line
     * @return the settings it records
     * @throws IllegalArgumentException naming the missing or bad field
     */
    public static ConformanceSettings settings(Map<String, Object> header) {
        String zfs = release(header).version();
        ZfsEngine engine = release(header).engine();
        Map<Setting, Long> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            if (!s.appliesTo(engine)) {
                continue;
            }
            Map<String, Object> section = object(header, s.section().field());
            if (!section.containsKey(s.zfsName())) {
                throw new IllegalArgumentException("header field " + s.section().field() + "." + s.zfsName()
                        + " is missing");
            }
            values.put(s, s.fromJson(section.get(s.zfsName())));
        }
        ConformanceSettings settings = ConformanceSettings.defaults(engine).with(values);
        Set<QuirkFix> fixes = EnumSet.noneOf(QuirkFix.class);
        Map<String, Object> given = object(header, "fixes");
        for (QuirkFix f : QuirkFix.values()) {
            if (f.engine() != engine) {
                continue;
            }
            if (!(given.get(f.name()) instanceof Boolean on)) {
                throw new IllegalArgumentException("header field fixes." + f.name() + " must be true or false, was "
                        + describe(given.get(f.name())));
            }
            if (on) {
                fixes.add(f);
            }
        }
        String followed = ZfsRelease.followedBy(engine, fixes).version();
        if (!zfs.equals(followed)) {
            throw new IllegalArgumentException("header field zfs is \"" + zfs + "\", but its fixes are those of zfs "
                    + followed + " (a release's output applies every fix the release shipped: docs/scope.md)");
        }
        return settings.withFixes(fixes);
    }

    /**
     * @param header a parsed header line
     * @return its {@code revision} field: the number of the {@link BehaviourRevision} of its engine the output
     *     claims to follow, at least 1 (a number above {@link BehaviourRevision#current} is a newer tool's)
     * @throws IllegalArgumentException naming the field, the rule and the value unless it is an integer in
     *     [1, 2^31 - 1]
     */
    public static int revision(Map<String, Object> header) {
        Object v = header.get(REVISION);
        if (!(v instanceof BigInteger n) || n.signum() <= 0 || n.bitLength() > 31) {
            throw new IllegalArgumentException("header field " + REVISION + " must be an integer in [1, "
                    + Integer.MAX_VALUE + "], was " + describe(v));
        }
        return n.intValueExact();
    }

    /**
     * @param header a parsed header line
     * @return its {@code trace} field
     * @throws IllegalArgumentException if it is missing or not a string
     */
    public static String traceName(Map<String, Object> header) {
        if (!(header.get("trace") instanceof String name)) {
            throw new IllegalArgumentException("header field trace must be a string, was "
                    + describe(header.get("trace")));
        }
        return name;
    }

    /**
     * @param header a parsed header line
     * @return its {@code trace_sha256} field
     * @throws IllegalArgumentException if it is missing or not a string
     */
    public static String traceSha256(Map<String, Object> header) {
        if (!(header.get("trace_sha256") instanceof String sum)) {
            throw new IllegalArgumentException("header field trace_sha256 must be a string, was "
                    + describe(header.get("trace_sha256")));
        }
        return sum;
    }

    /**
     * @param header a parsed header line
     * @return its {@code headers} field: whether operation lines list every header
     * @throws IllegalArgumentException if it is missing or not a boolean
     */
    public static boolean listsHeaders(Map<String, Object> header) {
        if (!(header.get("headers") instanceof Boolean b)) {
            throw new IllegalArgumentException("header field headers must be true or false, was "
                    + describe(header.get("headers")));
        }
        return b;
    }

    /**
     * @param index the 1-based number of the operation in the trace
     * @param step the operation and its trace line
     * @param outcome what it did
     * @param evicted the headers it evicted, in order
     * @param after the ARC's state after it
     * @param headers whether to list every header
     * @return the operation line's fields
     */
    public static Map<String, Object> step(long index, ConformanceTrace.Step step, Outcome outcome,
            List<Eviction> evicted, ArcSnapshot after, boolean headers) {
        Map<String, Object> m = opening(index, step, outcome, evicted, false, after.tick(), after.c());
        m.put("arc_p", u64(after.p()));
        m.put("arc_size", u64(after.size()));
        Map<String, Object> states = new LinkedHashMap<>();
        for (ArcState s : ArcState.of(ZfsEngine.V2_1_1)) {
            states.put(s.zfsName(), sizes(after.state(s)));
        }
        m.put("states", states);
        closing(m, after.evictCount(), after.evictNeeded(), after.needFree(), after.noGrow(), after.warm(),
                after.growTime(), after.waiterCounts(), ZfsEngine.V2_1_1, after.stats(),
                headers ? after.headers() : null, false);
        return m;
    }

    /**
     * An operation line of zfs-2.2.0's engine: as {@link #step}'s, with the type of every evicted header, the
     * fractions instead of {@code arc_p}, sizes per state and type, the ghost-hit bytes, zfs-2.2.0's statistics and
     * the type of every header.
     *
     * @param index the 1-based number of the operation
     * @param step the operation and its trace line
     * @param outcome what it did
     * @param evicted the headers it evicted, in order
     * @param after the state after it
     * @param headers whether to list every header
     * @return the operation line's fields
     */
    public static Map<String, Object> step22(long index, ConformanceTrace.Step step, Outcome outcome,
            List<Eviction> evicted, Arc22Snapshot after, boolean headers) {
        Map<String, Object> m = opening(index, step, outcome, evicted, true, after.tick(), after.c());
        m.put("arc_meta", u64(after.meta()));
        m.put("arc_pd", u64(after.pd()));
        m.put("arc_pm", u64(after.pm()));
        m.put("arc_size", u64(after.size()));
        Map<String, Object> states = new LinkedHashMap<>();
        for (ArcState s : ArcState.of(ZfsEngine.V2_2_0)) {
            Map<String, Object> byType = new LinkedHashMap<>();
            for (BufType t : BufType.values()) {
                byType.put(t.zfsName(), sizes(after.state(s, t)));
            }
            states.put(s.zfsName(), byType);
        }
        m.put("states", states);
        Map<String, Object> hits = new LinkedHashMap<>();
        for (ArcState ghost : List.of(ArcState.MRU_GHOST, ArcState.MFU_GHOST)) {
            Map<String, Object> byType = new LinkedHashMap<>();
            for (BufType t : BufType.values()) {
                byType.put(t.zfsName(), u64(after.ghostHits(ghost, t)));
            }
            hits.put(ghost.zfsName(), byType);
        }
        m.put("ghost_hits", hits);
        closing(m, after.evictCount(), after.evictNeeded(), after.needFree(), after.noGrow(), after.warm(),
                after.growTime(), after.waiterCounts(), ZfsEngine.V2_2_0, after.stats(),
                headers ? after.headers() : null, true);
        return m;
    }

    /** The fields of an operation line up to {@code arc_c}; {@code typed}: evicted headers name their type. */
    private static Map<String, Object> opening(long index, ConformanceTrace.Step step, Outcome outcome,
            List<Eviction> evicted, boolean typed, long tick, long c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", index);
        m.put("line", step.line());
        m.put("op", step.operation().toTraceLine());
        m.put("outcome", outcome.name());
        List<Object> ev = new ArrayList<>();
        for (Eviction e : evicted) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("key", e.key());
            if (typed) {
                x.put("type", e.type().zfsName());
            }
            x.put("size", u64(e.size()));
            x.put("from", e.from().zfsName());
            x.put("to", e.to() == null ? "destroyed" : e.to().zfsName());
            ev.add(x);
        }
        m.put("evicted", ev);
        m.put("tick", tick);
        m.put("arc_c", u64(c));
        return m;
    }

    /** {@code {"size", "esize"}} of one state (and type). */
    private static Map<String, Object> sizes(StateSnapshot state) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("size", u64(state.size()));
        x.put("esize", u64(state.evictableSize()));
        return x;
    }

    /**
     * The fields of an operation line from {@code arc_evict_count} on; {@code headers} null when not listed,
     * {@code typed}: each header names its type.
     */
    private static void closing(Map<String, Object> m, long evictCount, boolean evictNeeded, long needFree,
            boolean noGrow, boolean warm, long growTime, List<Long> waiterCounts, ZfsEngine engine, ArcStats stats,
            List<HeaderSnapshot> headers, boolean typed) {
        m.put("arc_evict_count", u64(evictCount));
        m.put("arc_evict_needed", evictNeeded);
        m.put("arc_need_free", u64(needFree));
        m.put("arc_no_grow", noGrow);
        m.put("arc_warm", warm);
        m.put("arc_growtime", growTime);
        m.put("waiters", waiterCounts.stream().map(ConformanceFormat::u64).toList());
        Map<String, Object> st = new LinkedHashMap<>();
        for (ArcStat s : ArcStat.of(engine)) {
            st.put(s.kstatName(), u64(stats.get(s)));
        }
        m.put("stats", st);
        if (headers != null) {
            List<Object> hs = new ArrayList<>();
            for (HeaderSnapshot h : headers) {
                Map<String, Object> x = new LinkedHashMap<>();
                x.put("key", h.key());
                if (typed) {
                    x.put("type", h.type().zfsName());
                }
                x.put("state", h.state().zfsName());
                x.put("size", u64(h.size()));
                x.put("has_data", h.hasData());
                x.put("shared_data", h.sharedData());
                x.put("refcount", h.refcount());
                x.put("prefetch", h.prefetch());
                x.put("prescient_prefetch", h.prescientPrefetch());
                x.put("arc_access", h.lastAccess());
                x.put("sublist", h.sublist());
                x.put("linked", h.linked());
                hs.add(x);
            }
            m.put("headers", hs);
        }
    }

    private static BigInteger u64(long value) {
        return new BigInteger(Long.toUnsignedString(value));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> header, String field) {
        if (!(header.get(field) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("header field " + field + " must be an object, was "
                + describe(header.get(field)));
        }
        return (Map<String, Object>) m;
    }

    /**
     * @param value a parsed JSON value, or {@code null} for a field that is absent or null
     * @return the value as an error message quotes it: its JSON text, escaped and cut at
     *     {@value Excerpt#MAX_CHARS} characters ({@link Excerpt#clip}), or {@code absent or null}
     */
    static String describe(Object value) {
        return value == null ? "absent or null" : Excerpt.clip(JsonWriter.write(value), Excerpt.MAX_CHARS);
    }
}
