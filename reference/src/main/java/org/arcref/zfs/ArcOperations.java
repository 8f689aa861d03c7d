package org.arcref.zfs;

/**
 * The operations of an op trace, as a ZFS ARC engine of the spec offers them ({@link ZfsArc} for zfs-2.1.1,
 * {@link Zfs22Arc} for zfs-2.2.0). Each method is one operation, atomic with respect to the
 * others; a rejected operation throws {@link IllegalArgumentException} or {@link IllegalStateException} naming the
 * argument, the rule and the value, and leaves the state unchanged. {@link Operation#applyTo} calls these.
 */
public interface ArcOperations {

    /** @return the configuration the engine was created with */
    ArcConfig config();

    /**
     * {@code arc_read}, completed at once.
     *
     * @param key the block identity
     * @param size the logical size: a multiple of 512 in [512, the configured largest block]
     * @param kind demand or prefetch
     * @param hold whether a demand read keeps its buffer
     * @param type data or metadata: a block's type is fixed while it has a header
     * @return the outcome
     */
    Outcome read(long key, long size, ReadKind kind, boolean hold, BufType type);

    /**
     * {@code arc_alloc_buf}: a new dirty block, pending until {@link #completeWrite}.
     *
     * @param key the identity the block will have: not cached, not a ghost, not pending
     * @param size the logical size
     * @param type data or metadata
     * @return {@link Outcome#WRITTEN}
     */
    Outcome write(long key, long size, BufType type);

    /** @param key a pending write @param hold whether the writer keeps its buffer @return the outcome */
    Outcome completeWrite(long key, boolean hold);

    /** @param key a cached block with a hold @return {@link Outcome#RELEASED} */
    Outcome release(long key);

    /** @param key a cached block with a hold @param newKey a new identity @return {@link Outcome#OVERWRITTEN} */
    Outcome overwrite(long key, long newKey);

    /** @param key the block identity @return what {@code arc_freed} did */
    Outcome free(long key);

    /** @param toFree bytes to take off {@code arc_c}, at least 0 @return {@link Outcome#TARGET_REDUCED} */
    Outcome reduceTargetSize(long toFree);

    /** @return one iteration of the evict zthr: {@link Outcome#EVICTOR_RAN} or {@link Outcome#IDLE} */
    Outcome evictorStep();

    /** @return one iteration of the reap zthr: {@link Outcome#REAPED} or {@link Outcome#IDLE} */
    Outcome reapStep();

    /** @param ticks how far to advance the clock, at least 0 @return {@link Outcome#TICKED} */
    Outcome tick(long ticks);

    /** @param bytes the free memory of an adjustable memory model @return {@link Outcome#MEMORY_SET} */
    Outcome setFreeMemory(long bytes);
}
