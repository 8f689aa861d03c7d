package org.arcref.zfs;

/**
 * A memory model whose free memory the caller sets, for tests and op traces that script memory
 * pressure. The value is volatile, so a change made by one thread is seen by others (for example by
 * the concurrent ARC's evictor thread); each read or write is atomic, nothing more.
 */
public final class AdjustableMemory implements MemoryModel {

    private volatile long free;

    /**
     * @param free the initial free memory in bytes
     * @throws IllegalArgumentException if {@code free} is negative
     */
    public AdjustableMemory(long free) {
        set(free);
    }

    @Override
    public long freeMemory() {
        return free;
    }

    /**
     * @param bytes the new free memory in bytes
     * @throws IllegalArgumentException if {@code bytes} is negative; the value is then unchanged
     */
    public void set(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("freeMemory must be >= 0, was " + bytes);
        }
        this.free = bytes;
    }
}
