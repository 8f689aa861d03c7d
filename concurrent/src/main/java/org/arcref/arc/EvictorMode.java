package org.arcref.arc;

import org.arcref.zfs.Validate;
import org.arcref.zthr.ZthrPriority;

/**
 * How a {@link ConcurrentArc}'s evictor runs: {@linkplain #STEPPED stepped} on the calling threads, or as the
 * {@code arc_evict} {@linkplain Zthr zthr} at a priority.
 */
public sealed interface EvictorMode permits EvictorMode.Stepped, EvictorMode.Zthr {

    /**
     * No zthr: the evictor is stepped on the calling threads ({@link ConcurrentArc#evictorStep()}, after each
     * operation if {@code ArcConfig#evictorRunsAfterEachOperation()}, and by waiters).
     */
    EvictorMode STEPPED = new Stepped();

    /**
     * @param priority the zthr's priority, not null
     * @return the {@code arc_evict} zthr at {@code priority}
     * @throws IllegalArgumentException if {@code priority} is null
     */
    static EvictorMode zthr(ZthrPriority priority) {
        return new Zthr(priority);
    }

    /** The evictor stepped on the calling threads; see {@link #STEPPED}. */
    record Stepped() implements EvictorMode {
    }

    /**
     * The {@code arc_evict} zthr, which runs whenever woken (ignoring
     * {@code ArcConfig#evictorRunsAfterEachOperation()}).
     *
     * @param priority its priority
     */
    record Zthr(ZthrPriority priority) implements EvictorMode {
        /** Rejects a null priority. */
        public Zthr {
            Validate.notNull("evictorPriority", priority);
        }
    }
}
