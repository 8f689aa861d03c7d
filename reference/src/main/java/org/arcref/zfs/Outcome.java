package org.arcref.zfs;

/** What one operation on the ARC did, as reported to the caller and in conformance output. */
public enum Outcome {
    /** A read found the data in MRU. */
    HIT_MRU,
    /** A read found the data in MFU. */
    HIT_MFU,
    /**
     * A read found the data in the uncached state (zfs-2.2.0's engine: a prefetch read with {@code uncached} left
     * it there, waiting for the evict zthr's flush).
     */
    HIT_UNCACHED,
    /** A read found a header in MRU ghost: {@code arc_adapt} grew {@code arc_p}, then the data was read. */
    GHOST_HIT_MRU,
    /** A read found a header in MFU ghost: {@code arc_adapt} shrank {@code arc_p}, then the data was read. */
    GHOST_HIT_MFU,
    /** A read found nothing: a new header went through anon to MRU, as on I/O completion. */
    MISS,
    /** A write allocated an anonymous (dirty) buffer. */
    WRITTEN,
    /** A write completed: the anonymous header was hashed and moved to MRU ({@code arc_write_done}). */
    WRITE_COMPLETED,
    /** A hold was released. */
    RELEASED,
    /**
     * A held buffer of a cached block went back to anon ({@code arc_release}) as a pending write under a new
     * identity: the block is being overwritten.
     */
    OVERWRITTEN,
    /** A block was freed: its header was destroyed ({@code arc_freed}), or a pending write discarded. */
    FREED,
    /** A free found the header referenced and left it alone, as {@code arc_freed} does. */
    FREE_SKIPPED_HELD,
    /** A free found no header for the key. */
    NOT_CACHED,
    /** {@code arc_reduce_target_size} ran. */
    TARGET_REDUCED,
    /** The evict zthr ran one {@code arc_evict_cb}. */
    EVICTOR_RAN,
    /** The reap zthr's check ran and it decided to run {@code arc_reap_cb}. */
    REAPED,
    /** A zthr was asked to run and its check function said there was nothing to do. */
    IDLE,
    /** The logical clock advanced. */
    TICKED,
    /** The memory model's free memory was changed. */
    MEMORY_SET;

    /**
     * @return whether this is a read that found its data cached: {@link #HIT_MRU}, {@link #HIT_MFU} or
     *     {@link #HIT_UNCACHED}
     */
    public boolean isHit() {
        return this == HIT_MRU || this == HIT_MFU || this == HIT_UNCACHED;
    }
}
