package org.arcref.zfs;

/**
 * The memory the ARC sees outside itself: ZFS's {@code arc_free_memory()} (free pages plus
 * inactive file pages on Linux). {@code arc_available_memory()} is derived from it as
 * {@code arc_free_memory() - arc_sys_free}. Implementations are called from the ARC's thread only
 * and must be cheap.
 */
public interface MemoryModel {

    /** @return the free memory in bytes, as ZFS's {@code arc_free_memory()}; never negative */
    long freeMemory();

    /** @return a model with so much free memory that no memory pressure ever arises */
    static MemoryModel plentiful() {
        return () -> Long.MAX_VALUE / 4;
    }
}
