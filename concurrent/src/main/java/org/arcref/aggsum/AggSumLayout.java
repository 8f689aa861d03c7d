package org.arcref.aggsum;

/**
 * How many buckets an {@link AggSum} has and how far its borrows are scaled: the pair
 * ({@code as_numbuckets}, {@code as_bucketshift}) that {@code aggsum_init} derives from the CPU count.
 *
 * <p>The 2.1 rule ({@code aggsum_init}, OpenZFS #12145): {@code as_bucketshift = highbit64(ncpus / 6) / 2}
 * and {@code as_numbuckets = ((ncpus - 1) >> as_bucketshift) + 1}, so from 12 CPUs two CPUs share a bucket,
 * from 48 four, and so on. A borrow is {@code |delta| << (aggsum_borrow_shift + as_bucketshift)}.
 *
 * @param numBuckets  {@code as_numbuckets}, at least 1
 * @param bucketShift {@code as_bucketshift}, in [0, {@value #MAX_BUCKET_SHIFT}] so that a borrow shift stays
 *                    below 64
 */
public record AggSumLayout(int numBuckets, int bucketShift) {

    /** {@code aggsum_borrow_shift}: a borrow is 2^4 = 16 times the delta that caused it (before the bucket shift). */
    public static final int BORROW_SHIFT = 4;

    /** The largest bucket shift for which {@code BORROW_SHIFT + bucketShift} is a valid shift of a long. */
    public static final int MAX_BUCKET_SHIFT = 63 - BORROW_SHIFT;

    /** Validates both components; see the record description for the rules. */
    public AggSumLayout {
        if (numBuckets < 1) {
            throw new IllegalArgumentException("numBuckets must be >= 1, was " + numBuckets);
        }
        if (bucketShift < 0 || bucketShift > MAX_BUCKET_SHIFT) {
            throw new IllegalArgumentException(
                    "bucketShift must be in [0, " + MAX_BUCKET_SHIFT + "], was " + bucketShift);
        }
    }

    /**
     * The layout {@code aggsum_init} chooses for {@code ncpus} CPUs ({@code boot_ncpus}).
     *
     * @throws IllegalArgumentException if {@code ncpus < 1}
     */
    public static AggSumLayout forCpus(int ncpus) {
        if (ncpus < 1) {
            throw new IllegalArgumentException("ncpus must be >= 1, was " + ncpus);
        }
        int shift = highbit64(ncpus / 6) / 2;
        return new AggSumLayout(((ncpus - 1) >> shift) + 1, shift);
    }

    /** The layout for the CPUs this JVM may use ({@link Runtime#availableProcessors()}). */
    public static AggSumLayout forThisMachine() {
        return forCpus(Runtime.getRuntime().availableProcessors());
    }

    /** One bucket, no shift: every thread shares the bucket, which makes fast and slow paths race. */
    public static AggSumLayout singleBucket() {
        return new AggSumLayout(1, 0);
    }

    /** {@code |delta| << (aggsum_borrow_shift + as_bucketshift)}: the borrow a slow path asks for. */
    long borrowFor(long delta) {
        return Math.abs(delta) << (BORROW_SHIFT + bucketShift);
    }

    /**
     * The 2.1 borrow rule of {@code aggsum_add}'s slow path (A6): how much a bucket that has borrowed {@code old}
     * changes its borrow when it wants {@code wanted}. Grows to exactly {@code wanted} when that is not smaller
     * (compared as u64, as the C code does); otherwise shrinks by a quarter of the excess with C's truncating
     * division, so the result is negative.
     */
    static long borrowChange(long wanted, long old) {
        if (Long.compareUnsigned(wanted, old) >= 0) {
            return wanted - old;
        }
        return (wanted - old) / 4;
    }

    /** {@code highbit64}: the 1-based index of the highest set bit, 0 for 0. */
    static int highbit64(long x) {
        return 64 - Long.numberOfLeadingZeros(x);
    }
}
