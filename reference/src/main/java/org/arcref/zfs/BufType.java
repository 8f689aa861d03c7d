package org.arcref.zfs;

/**
 * What a buffer holds (ZFS {@code arc_buf_contents_t}): file data or metadata. zfs-2.1.1's engine models data only;
 * zfs-2.2.0's balances the two ({@code arc_meta}). ZFS derives a block's type from its block pointer
 * ({@code BP_GET_BUFC_TYPE}), so a block never changes type while it has a header.
 */
public enum BufType {
    /** {@code ARC_BUFC_DATA}: file contents (0 in zfs-2.2.0, 1 in zfs-2.1.1). */
    DATA("data"),
    /** {@code ARC_BUFC_METADATA}: everything else, such as indirect blocks and dnodes. */
    METADATA("metadata");

    private final String zfsName;

    BufType(String zfsName) {
        this.zfsName = zfsName;
    }

    /** @return the name conformance output uses: {@code data} or {@code metadata} */
    public String zfsName() {
        return zfsName;
    }
}
