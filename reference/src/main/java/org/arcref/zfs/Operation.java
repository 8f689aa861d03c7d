package org.arcref.zfs;

/**
 * One operation of an op trace, applied to an engine of the spec ({@link ArcOperations}). Each record prints itself as its
 * trace line ({@link #toTraceLine()}), the format {@code org.arcref.trace.OpTraceReader} (in workloads/) reads, so
 * that a generated or shrunk sequence can be saved and replayed.
 */
public sealed interface Operation {

    /**
     * Applies the operation.
     *
     * @param arc the ARC
     * @return what it did
     * @throws IllegalArgumentException if the ARC rejects it; the ARC is then unchanged
     */
    Outcome applyTo(ArcOperations arc);

    /** @return the operation as one op-trace line, without a line terminator */
    String toTraceLine();

    /**
     * {@code read <key> <size> <demand|prefetch|prescient> [hold] [meta]}: {@link ArcOperations#read}.
     *
     * @param key the block identity
     * @param size the logical size
     * @param kind demand or prefetch
     * @param hold whether a demand read keeps its buffer
     * @param type data, or metadata ({@code meta})
     */
    record Read(long key, long size, ReadKind kind, boolean hold, BufType type) implements Operation {
        /** Validates that the type is given. */
        public Read {
            Validate.notNull("type", type);
        }

        /** A read of data. @param key the key @param size the size @param kind the kind @param hold hold */
        public Read(long key, long size, ReadKind kind, boolean hold) {
            this(key, size, kind, hold, BufType.DATA);
        }

        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.read(key, size, kind, hold, type);
        }

        @Override
        public String toTraceLine() {
            return "read " + key + " " + size + " " + kindWord(kind) + (hold ? " hold" : "") + typeWord(type);
        }
    }

    /**
     * {@code write <key> <size> [meta]}: {@link ArcOperations#write}.
     *
     * @param key the identity the block will have
     * @param size the logical size
     * @param type data, or metadata ({@code meta})
     */
    record Write(long key, long size, BufType type) implements Operation {
        /** Validates that the type is given. */
        public Write {
            Validate.notNull("type", type);
        }

        /** A write of data. @param key the key @param size the size */
        public Write(long key, long size) {
            this(key, size, BufType.DATA);
        }

        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.write(key, size, type);
        }

        @Override
        public String toTraceLine() {
            return "write " + key + " " + size + typeWord(type);
        }
    }

    /** {@code complete <key> [hold]}: {@link ArcOperations#completeWrite}. */
    record Complete(long key, boolean hold) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.completeWrite(key, hold);
        }

        @Override
        public String toTraceLine() {
            return "complete " + key + (hold ? " hold" : "");
        }
    }

    /** {@code release <key>}: {@link ArcOperations#release}. */
    record Release(long key) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.release(key);
        }

        @Override
        public String toTraceLine() {
            return "release " + key;
        }
    }

    /** {@code overwrite <key> <newKey>}: {@link ArcOperations#overwrite}. */
    record Overwrite(long key, long newKey) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.overwrite(key, newKey);
        }

        @Override
        public String toTraceLine() {
            return "overwrite " + key + " " + newKey;
        }
    }

    /** {@code free <key>}: {@link ArcOperations#free}. */
    record Free(long key) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.free(key);
        }

        @Override
        public String toTraceLine() {
            return "free " + key;
        }
    }

    /** {@code shrink <bytes>}: {@link ArcOperations#reduceTargetSize}. */
    record Shrink(long bytes) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.reduceTargetSize(bytes);
        }

        @Override
        public String toTraceLine() {
            return "shrink " + bytes;
        }
    }

    /** {@code evict}: {@link ArcOperations#evictorStep}. */
    record Evict() implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.evictorStep();
        }

        @Override
        public String toTraceLine() {
            return "evict";
        }
    }

    /** {@code reap}: {@link ArcOperations#reapStep}. */
    record Reap() implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.reapStep();
        }

        @Override
        public String toTraceLine() {
            return "reap";
        }
    }

    /** {@code tick <ticks>}: {@link ArcOperations#tick}. */
    record Tick(long ticks) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.tick(ticks);
        }

        @Override
        public String toTraceLine() {
            return "tick " + ticks;
        }
    }

    /** {@code memory <freeBytes>}: {@link ArcOperations#setFreeMemory}. */
    record Memory(long freeBytes) implements Operation {
        @Override
        public Outcome applyTo(ArcOperations arc) {
            return arc.setFreeMemory(freeBytes);
        }

        @Override
        public String toTraceLine() {
            return "memory " + freeBytes;
        }
    }

    /** @return the op-trace suffix of a buffer type: nothing for data, {@code " meta"} for metadata */
    static String typeWord(BufType type) {
        return type == BufType.METADATA ? " meta" : "";
    }

    /** @return the op-trace word of a read kind */
    static String kindWord(ReadKind kind) {
        return switch (kind) {
            case DEMAND -> "demand";
            case PREFETCH -> "prefetch";
            case PRESCIENT_PREFETCH -> "prescient";
        };
    }
}
