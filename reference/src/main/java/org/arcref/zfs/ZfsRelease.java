package org.arcref.zfs;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The OpenZFS releases the spec follows, each as zfs-2.1.1 plus the {@link QuirkFix upstream fixes} it shipped. A
 * configuration follows a release when it applies every fix of that release; {@link #followedBy} names the newest
 * such release, which is what the conformance header's {@code zfs} field reports. Each release is judged by its
 * own, unpatched arc.c in the oracle module.
 */
public enum ZfsRelease {
    /** zfs-2.1.1 (2021-09-15): the release the spec reproduces by default. */
    V2_1_1("2.1.1", EnumSet.noneOf(QuirkFix.class)),
    /**
     * zfs-2.1.16 (2024-12-03), the last 2.1 release: 2.1.1 with #12425 and #13794 (first in 2.1.6) and #14137
     * (first in 2.1.7). Its other ARC commits change nothing the spec models (docs/scope.md).
     */
    V2_1_16("2.1.16", EnumSet.of(QuirkFix.WRITE_SHARES_LINEAR_12425, QuirkFix.REAP_ABOVE_C_MIN_13794,
            QuirkFix.ARC_P_GROWTH_CAP_14137));

    private final String version;
    private final Set<QuirkFix> fixes;

    ZfsRelease(String version, Set<QuirkFix> fixes) {
        this.version = version;
        this.fixes = Collections.unmodifiableSet(fixes);
    }

    /** @return the release's version, as {@code --zfs} and the conformance header write it ({@code 2.1.16}) */
    public String version() {
        return version;
    }

    /** @return the upstream fixes the release shipped, on top of 2.1.1's code */
    public Set<QuirkFix> fixes() {
        return fixes;
    }

    /**
     * @param fixes the fixes a configuration applies
     * @return the newest release all of whose fixes are among them ({@link #V2_1_1} at least)
     */
    public static ZfsRelease followedBy(Set<QuirkFix> fixes) {
        ZfsRelease newest = V2_1_1;
        for (ZfsRelease r : values()) {
            if (fixes.containsAll(r.fixes)) {
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
