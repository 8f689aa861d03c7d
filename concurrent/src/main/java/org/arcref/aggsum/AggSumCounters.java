package org.arcref.aggsum;

/**
 * A snapshot of an {@link AggSum}'s event counters, for experiments (how often the hot path stays in its bucket,
 * how much an exact read costs). Each count is exact for the operations that completed before the snapshot; the
 * snapshot as a whole is not atomic.
 *
 * @param fastPathAdds   adds that stayed within their bucket's borrow ({@code aggsum_add}'s fast path)
 * @param slowPathAdds   adds that took the core lock to borrow (or, in exact mode, every add)
 * @param valueCalls     calls of {@link AggSum#value()} ({@code aggsum_value})
 * @param compareCalls   calls of {@link AggSum#compare(long)} ({@code aggsum_compare}), decided lock-free or not
 * @param bucketsFlushed buckets folded into the core by {@code value} and {@code compare}
 */
public record AggSumCounters(long fastPathAdds, long slowPathAdds, long valueCalls, long compareCalls,
                             long bucketsFlushed) {
}
