package org.arcref.zfs;

/**
 * The two ARCs of OpenZFS the spec models, each as the first release that ran it; later releases of the same line
 * are the engine with {@link QuirkFix fixes} ({@link ZfsRelease}). zfs-2.2.0 replaced 2.1's balancing
 * ({@code arc_p}) by three adaptive fractions (OpenZFS #14359).
 */
public enum ZfsEngine {
    /** The zfs-2.1.1 ARC: data buffers, {@code arc_p} ({@link ZfsArc}). */
    V2_1_1("2.1.1"),
    /** The zfs-2.2.0 ARC: data and metadata, {@code arc_meta}, {@code arc_pd}, {@code arc_pm} ({@link Zfs22Arc}). */
    V2_2_0("2.2.0");

    private final String version;

    ZfsEngine(String version) {
        this.version = version;
    }

    /** @return the release that introduced it, as the docs name it ({@code 2.2.0}) */
    public String version() {
        return version;
    }

    /** @return the version */
    @Override
    public String toString() {
        return version;
    }
}
