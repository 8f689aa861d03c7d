package org.arcref.zfs;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The OpenZFS releases the spec follows, each as its {@link ZfsEngine engine} (zfs-2.1.1's or zfs-2.2.0's) plus the
 * {@link QuirkFix upstream fixes} it shipped. A configuration of an engine follows a release of that engine when it
 * applies every fix of that release; {@link #followedBy} names the newest such release, which is what the
 * conformance header's {@code zfs} field reports. Each release is judged by its own, unpatched arc.c in the oracle
 * module.
 */
public enum ZfsRelease {
    /** zfs-2.1.1 (2021-09-15): the release the spec reproduces by default. */
    V2_1_1("2.1.1", ZfsEngine.V2_1_1, EnumSet.noneOf(QuirkFix.class)),
    /**
     * zfs-2.1.16 (2024-12-03), the last 2.1 release: 2.1.1 with #12425 and #13794 (first in 2.1.6) and #14137
     * (first in 2.1.7). Its other ARC commits change nothing the spec models (docs/scope.md).
     */
    V2_1_16("2.1.16", ZfsEngine.V2_1_1, EnumSet.of(QuirkFix.WRITE_SHARES_LINEAR_12425,
            QuirkFix.REAP_ABOVE_C_MIN_13794, QuirkFix.ARC_P_GROWTH_CAP_14137)),
    /** zfs-2.2.0 (2023-10-12): the release the zfs-2.2.0 engine reproduces by default. */
    V2_2_0("2.2.0", ZfsEngine.V2_2_0, EnumSet.noneOf(QuirkFix.class)),
    /**
     * zfs-2.2.11, the last 2.2 release: 2.2.0 with #16546 (first in 2.2.7), #17255 (2.2.8) and #16197 (2.2.9). Its
     * other ARC commits change nothing the spec models (docs/scope.md).
     */
    V2_2_11("2.2.11", ZfsEngine.V2_2_0, EnumSet.of(QuirkFix.MFU_META_EVICTION_16546,
            QuirkFix.EVICT_ADJ_OVERFLOW_17255, QuirkFix.SHRINK_IMPROVEMENTS_16197));

    private final String version;
    private final ZfsEngine engine;
    private final Set<QuirkFix> fixes;

    ZfsRelease(String version, ZfsEngine engine, Set<QuirkFix> fixes) {
        this.version = version;
        this.engine = engine;
        this.fixes = Collections.unmodifiableSet(fixes);
    }

    /** @return the release's version, as {@code --zfs} and the conformance header write it ({@code 2.1.16}) */
    public String version() {
        return version;
    }

    /** @return the engine the release runs */
    public ZfsEngine engine() {
        return engine;
    }

    /** @return the upstream fixes the release shipped, on top of its engine's first release */
    public Set<QuirkFix> fixes() {
        return fixes;
    }

    /**
     * @param engine the engine a configuration runs
     * @param fixes the fixes it applies
     * @return the newest release of that engine all of whose fixes are among them (the engine's first release at
     *     least)
     */
    public static ZfsRelease followedBy(ZfsEngine engine, Set<QuirkFix> fixes) {
        ZfsRelease newest = null;
        for (ZfsRelease r : values()) {
            if (r.engine == engine && (newest == null || fixes.containsAll(r.fixes))) {
                newest = r;
            }
        }
        return newest;
    }

    /**
     * @param version a version as {@link #version()} writes it
     * @return the release, if the spec follows it
     */
    public static Optional<ZfsRelease> of(String version) {
        return Arrays.stream(values()).filter(r -> r.version.equals(version)).findFirst();
    }

    /** @return the version, as {@link #version()} */
    @Override
    public String toString() {
        return version;
    }

    /** @return the versions of every release, comma-separated, for error messages and help */
    public static String versions() {
        return Arrays.stream(values()).map(ZfsRelease::version).collect(Collectors.joining(", "));
    }
}
