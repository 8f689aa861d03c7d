package org.arcref.zfs;

/**
 * The accounting of one ARC state at one moment.
 *
 * @param size {@code arcs_size}: bytes of every header in the state (logical size for ghosts)
 * @param evictableSize {@code arcs_esize[ARC_BUFC_DATA]}: the same restricted to headers on the
 *     state's eviction list
 */
public record StateSnapshot(long size, long evictableSize) {
}
