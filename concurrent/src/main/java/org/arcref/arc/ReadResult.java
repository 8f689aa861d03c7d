package org.arcref.arc;

import org.arcref.zfs.Outcome;

/**
 * What a read returned: the outcome, as the spec's {@code ZfsArc#read} reports it, and the block's value.
 *
 * @param outcome the outcome (hit, ghost hit or miss)
 * @param value the value: the cached one on a hit, the loader's on a ghost hit or miss; never null
 * @param <V> the type of the cached values
 */
public record ReadResult<V>(Outcome outcome, V value) {
}
