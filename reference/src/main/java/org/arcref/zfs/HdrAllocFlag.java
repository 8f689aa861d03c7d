package org.arcref.zfs;

/**
 * The flags of {@code arc_hdr_alloc_flags_t} that an allocation of data ({@code arc_hdr_alloc_abd},
 * {@code arc_get_data_impl}) is given, as a set: {@code EnumSet.of(ARC_HDR_DO_ADAPT, ARC_HDR_USE_RESERVE)} stands for
 * arc.c's {@code ARC_HDR_DO_ADAPT | ARC_HDR_USE_RESERVE}. Only the flags the model uses are here (no
 * {@code ARC_HDR_ALLOC_RDATA}: nothing is compressed or encrypted).
 */
public enum HdrAllocFlag {
    /**
     * {@code ARC_HDR_DO_ADAPT}: {@code arc_get_data_impl} calls {@code arc_adapt} first. Given for a miss's header
     * data, every private copy of a buffer and {@code arc_write_ready}'s header data; not for a ghost hit's header
     * data, which {@code arc_read} has adapted for already.
     */
    ARC_HDR_DO_ADAPT,
    /**
     * {@code ARC_HDR_USE_RESERVE}: {@code arc_wait_for_eviction} is asked with {@code use_reserve}, which doubles the
     * overflow an {@code ARC_OVF_SOME} level allows. Given only for {@code arc_write_ready}'s header data.
     */
    ARC_HDR_USE_RESERVE,
    /**
     * {@code ARC_HDR_ALLOC_LINEAR} (zfs-2.2.0): {@code arc_get_data_abd} allocates the data linear whatever its
     * size, so a buffer can share it. Given only for an uncached read's header data.
     */
    ARC_HDR_ALLOC_LINEAR
}
