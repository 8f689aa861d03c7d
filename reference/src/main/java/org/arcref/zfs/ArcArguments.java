package org.arcref.zfs;

/**
 * The argument rules of the ARC's operations, shared by {@link ZfsArc} and every other
 * implementation of the policy so that all reject the same input with the same message. Each check
 * throws {@link IllegalArgumentException} naming the argument, the rule and the value.
 */
public final class ArcArguments {

    private ArcArguments() {
    }

    /**
     * @param size a block size
     * @param config the configuration giving {@code maxBlockSize}
     * @throws IllegalArgumentException unless {@code size} is a multiple of 512 in [512, maxBlockSize]
     */
    public static void requireBlockSize(long size, ArcConfig config) {
        Validate.range("size", size, ArcConfig.MIN_BLOCK_SIZE, config.maxBlockSize());
        Validate.multipleOf("size", size, ArcConfig.MIN_BLOCK_SIZE);
    }

    /**
     * @param kind the read kind, not null
     * @param hold whether the read keeps its reference
     * @throws IllegalArgumentException if {@code kind} is null, or a prefetch asks to hold
     */
    public static void requireHoldAllowed(ReadKind kind, boolean hold) {
        Validate.notNull("kind", kind);
        if (hold && kind.isPrefetch()) {
            throw new IllegalArgumentException("hold must be false for a " + kind
                    + " read (a prefetch takes no reference), was true");
        }
    }

    /**
     * @param type the buffer type an operation names
     * @throws IllegalArgumentException unless it is data: zfs-2.1.1's engine models data buffers only
     */
    public static void requireData(BufType type) {
        Validate.notNull("type", type);
        if (type != BufType.DATA) {
            throw new IllegalArgumentException("type must be data for zfs-2.1.1's engine (it models data buffers "
                    + "only; metadata needs zfs-2.2.0's), was " + type.zfsName());
        }
    }

    /**
     * @param engine the engine a configuration is for
     * @param fixes the fixes it applies
     * @throws IllegalArgumentException naming the first fix of another engine
     */
    public static void requireEngineFixes(ZfsEngine engine, java.util.Set<QuirkFix> fixes) {
        for (QuirkFix fix : fixes) {
            if (fix.engine() != engine) {
                throw new IllegalArgumentException("fixes must be fixes of the zfs-" + engine
                        + " engine, was " + fix + " (a fix of zfs-" + fix.engine() + "'s)");
            }
        }
    }

    /**
     * @param key the key an operation names
     * @param headerType the type of the key's existing header (cached, ghost or pending)
     * @param type the type the operation names
     * @throws IllegalArgumentException if they differ: a block's type comes from its block pointer
     */
    public static void requireSameType(long key, BufType headerType, BufType type) {
        Validate.notNull("type", type);
        if (headerType != type) {
            throw new IllegalArgumentException("type must equal the type (" + headerType.zfsName() + ") of key "
                    + key + "'s header, was " + type.zfsName());
        }
    }

    /** @throws IllegalArgumentException if a read names a size other than the cached one */
    public static void requireCachedSize(long key, long cachedSize, long size) {
        if (cachedSize != size) {
            throw new IllegalArgumentException("size must equal the cached size " + cachedSize + " of key "
                    + key + ", was " + size);
        }
    }

    /**
     * @param name the argument's name: {@code key}, or {@code newKey} for an overwrite's new identity
     * @throws IllegalArgumentException if the key has a pending write ({@code pending})
     */
    public static void requireNotPending(String name, long key, boolean pending) {
        if (pending) {
            throw new IllegalArgumentException(name + " must not have a pending write, was " + key);
        }
    }

    /**
     * The identity of a new block (a write, or an overwrite's new identity): ZFS writes are copy-on-write.
     *
     * @param name the argument's name: {@code key}, or {@code newKey} for an overwrite's new identity
     * @param pending whether the key has a pending write
     * @param cachedState the state of the key's hashed header, or null if it has none
     * @throws IllegalArgumentException if the key has a pending write, or is cached or a ghost
     */
    public static void requireNewKey(String name, long key, boolean pending, ArcState cachedState) {
        requireNotPending(name, key, pending);
        if (cachedState != null) {
            throw new IllegalArgumentException(name + " must not be cached (ZFS writes are copy-on-write: "
                    + "a new block has a new identity), was " + key + " in state " + cachedState.zfsName());
        }
    }

    /** @throws IllegalArgumentException if the key has no pending write ({@code pending} false) */
    public static void requirePending(long key, boolean pending) {
        if (!pending) {
            throw new IllegalArgumentException("key must have a pending write, was " + key);
        }
    }

    /**
     * @param state the state of the key's hashed header, or null if it has none
     * @param refcount the header's reference count (ignored without a header)
     * @throws IllegalArgumentException unless the key is cached with a hold
     */
    public static void requireHeld(long key, ArcState state, int refcount) {
        if (state == null || refcount == 0) {
            throw new IllegalArgumentException("key must be cached and held, was " + key
                    + (state == null ? " (not cached)" : " (refcount 0 in " + state.zfsName() + ")"));
        }
    }

    /** @throws IllegalArgumentException if {@code toFree} is negative */
    public static void requireToFree(long toFree) {
        Validate.atLeast("toFree", toFree, 0);
    }

    /** @throws IllegalArgumentException unless {@code ticks} is in [0, Long.MAX_VALUE - now] */
    public static void requireTicks(long ticks, long now) {
        Validate.range("ticks", ticks, 0, Long.MAX_VALUE - now);
    }
}
