package org.arcref.zfs;

/**
 * One header evicted by {@code arc_evict_hdr}, as its DTrace probes report it: {@code arc__evict} when
 * a cached header loses its data and moves to its ghost state, {@code arc__delete} when a ghost
 * header is destroyed. Reported by {@link ZfsArc} to the probe given at construction, in the order
 * eviction visits the headers.
 *
 * @param key the block identity
 * @param size the logical size in bytes ({@code HDR_GET_LSIZE})
 * @param from the state the header was evicted from: {@link ArcState#MRU} or {@link ArcState#MFU}
 *     (data evicted, header to its ghost state) or a ghost state (header destroyed)
 * @param type the header's type (data in zfs-2.1.1's engine)
 */
public record Eviction(long key, long size, ArcState from, BufType type) {

    /** Validates that {@code from} is a state eviction takes headers from. */
    public Eviction {
        Validate.notNull("type", type);
        Validate.notNull("from", from);
        if (!from.hasList()) {
            throw new IllegalArgumentException("from must be a listed state (mru, mfu or a ghost), was " + from);
        }
    }

    /** An eviction of a data header: every eviction of zfs-2.1.1's engine. */
    public Eviction(long key, long size, ArcState from) {
        this(key, size, from, BufType.DATA);
    }

    /** @return the state the header went to: the ghost state of MRU or MFU, or {@code null} if destroyed */
    public ArcState to() {
        return switch (from) {
            case MRU -> ArcState.MRU_GHOST;
            case MFU -> ArcState.MFU_GHOST;
            default -> null;
        };
    }
}
