package org.arcref.aggsum;

/**
 * Test access to {@link AggSum}'s bucketed add from a home slot the test chooses, for checkers that run every
 * scenario in new threads (whose ids, and so whose home buckets, change from run to run). Slots map onto buckets as
 * {@code AggSum}'s constructor sets them: with two buckets, slot 0's home is bucket 0 and slot 1's is bucket 1
 * ({@code AggSumSlotsTest}). Test sources only.
 */
public final class AggSumSlots {

    private AggSumSlots() {
    }

    /**
     * {@code aggsum_add} as a thread whose home slot is {@code slot} runs it, on any variant.
     *
     * @param sum a bucketed aggsum (not {@link AggSum#exact})
     * @param slot the home slot, in [0, 64)
     * @param delta the amount added
     */
    public static void add(AggSum sum, int slot, long delta) {
        sum.addFromSlot(slot, delta);
    }
}
