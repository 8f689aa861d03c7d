package org.arcref.cli;

import org.arcref.trace.Excerpt;
import org.arcref.zfs.ZfsRelease;

/** The {@code --zfs RELEASE} option of {@code arc conform} and {@code arc explore}: the release the spec follows. */
final class ZfsOption {

    private ZfsOption() {
    }

    /**
     * @param value the option's value, or null when it was not given
     * @return the release it names; zfs-2.1.1 when not given
     * @throws IllegalArgumentException naming the option, the releases the spec follows and the value
     */
    static ZfsRelease release(String value) {
        if (value == null) {
            return ZfsRelease.V2_1_1;
        }
        return ZfsRelease.of(value).orElseThrow(() -> new IllegalArgumentException("--zfs must be one of "
                + ZfsRelease.versions() + " (the releases the spec follows), was " + Excerpt.of(value)));
    }
}
