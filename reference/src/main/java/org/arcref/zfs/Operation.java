package org.arcref.zfs;

/**
 * One operation of an op trace, applied to a {@link ZfsArc}. Each record prints itself as its
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
    Outcome applyTo(ZfsArc arc);

    /** @return the operation as one op-trace line, without a line terminator */
    String toTraceLine();

    /** {@code read <key> <size> <demand|prefetch|prescient> [hold]}: {@link ZfsArc#read}. */
    record Read(long key, long size, ReadKind kind, boolean hold) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.read(key, size, kind, hold);
        }

        @Override
        public String toTraceLine() {
            return "read " + key + " " + size + " " + kindWord(kind) + (hold ? " hold" : "");
        }
    }

    /** {@code write <key> <size>}: {@link ZfsArc#write}. */
    record Write(long key, long size) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.write(key, size);
        }

        @Override
        public String toTraceLine() {
            return "write " + key + " " + size;
        }
    }

    /** {@code complete <key> [hold]}: {@link ZfsArc#completeWrite}. */
    record Complete(long key, boolean hold) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.completeWrite(key, hold);
        }

        @Override
        public String toTraceLine() {
            return "complete " + key + (hold ? " hold" : "");
        }
    }

    /** {@code release <key>}: {@link ZfsArc#release}. */
    record Release(long key) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.release(key);
        }

        @Override
        public String toTraceLine() {
            return "release " + key;
        }
    }

    /** {@code overwrite <key> <newKey>}: {@link ZfsArc#overwrite}. */
    record Overwrite(long key, long newKey) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.overwrite(key, newKey);
        }

        @Override
        public String toTraceLine() {
            return "overwrite " + key + " " + newKey;
        }
    }

    /** {@code free <key>}: {@link ZfsArc#free}. */
    record Free(long key) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.free(key);
        }

        @Override
        public String toTraceLine() {
            return "free " + key;
        }
    }

    /** {@code shrink <bytes>}: {@link ZfsArc#reduceTargetSize}. */
    record Shrink(long bytes) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.reduceTargetSize(bytes);
        }

        @Override
        public String toTraceLine() {
            return "shrink " + bytes;
        }
    }

    /** {@code evict}: {@link ZfsArc#evictorStep}. */
    record Evict() implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.evictorStep();
        }

        @Override
        public String toTraceLine() {
            return "evict";
        }
    }

    /** {@code reap}: {@link ZfsArc#reapStep}. */
    record Reap() implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.reapStep();
        }

        @Override
        public String toTraceLine() {
            return "reap";
        }
    }

    /** {@code tick <ticks>}: {@link ZfsArc#tick}. */
    record Tick(long ticks) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.tick(ticks);
        }

        @Override
        public String toTraceLine() {
            return "tick " + ticks;
        }
    }

    /** {@code memory <freeBytes>}: {@link ZfsArc#setFreeMemory}. */
    record Memory(long freeBytes) implements Operation {
        @Override
        public Outcome applyTo(ZfsArc arc) {
            return arc.setFreeMemory(freeBytes);
        }

        @Override
        public String toTraceLine() {
            return "memory " + freeBytes;
        }
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
