package org.arcref.arc;

import java.util.Arrays;
import org.arcref.aggsum.AggSum;

/**
 * Which of the aggsum's four reads the concurrent ARC makes at each place it reads {@code arc_size}: zfs-2.1.1's
 * read at every site ({@link #of(ArcOptions)}), the exact {@code aggsum_compare} for {@code arc_p} growth with
 * {@link ArcOptions#exactPGrowthCompare()}, and, in tests, any other read planted at one site ({@link #with}) to show
 * that the site's test fails when its read is swapped. Immutable.
 */
final class SizeReads {

    /** The four reads of an aggsum ({@code aggsum.h}). */
    enum Read {
        /** {@code aggsum_lower_bound}: lock-free, at or below the value. */
        LOWER_BOUND,
        /** {@code aggsum_upper_bound}: lock-free, at or above the value. */
        UPPER_BOUND,
        /** {@code aggsum_value}: exact, flushes every bucket. */
        VALUE,
        /** {@code aggsum_compare}: the exact sign against a target, flushing buckets until it is known. */
        COMPARE
    }

    /**
     * Every place the concurrent ARC reads {@code arc_size}, with the read zfs-2.1.1's arc.c makes there (line numbers
     * of {@code git show zfs-2.1.1:module/zfs/arc.c}). A site that uses the number itself cannot read
     * {@link Read#COMPARE}; a site that only compares with a target can read any of the four.
     */
    enum Site {
        /** {@code arc_get_data_impl}'s {@code arc_p} growth: {@code aggsum_upper_bound(&arc_size) < arc_c} (5336). */
        P_GROWTH(Read.UPPER_BOUND, true),
        /** {@code arc_adapt}'s growth of {@code arc_c}: {@code aggsum_upper_bound >= arc_c - 2 * SPA_MAXBLOCKSIZE}
         * (5121). */
        ADAPT(Read.UPPER_BOUND, false),
        /** {@code arc_is_overflowing}: {@code aggsum_lower_bound(&arc_size) - arc_c - overflow / 2} (5154). */
        OVERFLOW(Read.LOWER_BOUND, false),
        /** {@code arc_evict_cb}: {@code aggsum_compare(&arc_size, arc_c) > 0} (4908). */
        EVICT_CB(Read.COMPARE, true),
        /** {@code arc_evict}'s MRU target, {@code aggsum_value(&arc_size) - arc_c} (4575). */
        EVICT_MRU(Read.VALUE, false),
        /** {@code arc_evict}'s MFU target, {@code aggsum_value(&arc_size) - arc_c} again (4636). */
        EVICT_MFU(Read.VALUE, false),
        /** {@code arc_reduce_target_size}: {@code MIN(arc_c, aggsum_value(&arc_size))} (4751). */
        REDUCE_TARGET(Read.VALUE, false);

        final Read zfs;
        final boolean comparesOnly;

        Site(Read zfs, boolean comparesOnly) {
            this.zfs = zfs;
            this.comparesOnly = comparesOnly;
        }

        /** @return whether {@code read} can stand at this site */
        boolean accepts(Read read) {
            return comparesOnly || read != Read.COMPARE;
        }
    }

    private final Read[] reads;

    private SizeReads(Read[] reads) {
        this.reads = reads;
    }

    /**
     * @param options the mode
     * @return zfs-2.1.1's read at every site, except {@code aggsum_compare} for {@code arc_p} growth if the options
     *     ask for the exact compare
     */
    static SizeReads of(ArcOptions options) {
        Read[] reads = new Read[Site.values().length];
        for (Site s : Site.values()) {
            reads[s.ordinal()] = s.zfs;
        }
        SizeReads zfs = new SizeReads(reads);
        return options.exactPGrowthCompare() ? zfs.with(Site.P_GROWTH, Read.COMPARE) : zfs;
    }

    /**
     * @param site a site
     * @param read the read to make there
     * @return a copy that makes {@code read} at {@code site}
     * @throws IllegalArgumentException if {@code site} uses the number and {@code read} is {@link Read#COMPARE}
     */
    SizeReads with(Site site, Read read) {
        if (!site.accepts(read)) {
            throw new IllegalArgumentException("site " + site + " uses arc_size's number, so it cannot read " + read);
        }
        Read[] copy = Arrays.copyOf(reads, reads.length);
        copy[site.ordinal()] = read;
        return new SizeReads(copy);
    }

    /** @return the read made at {@code site} */
    Read at(Site site) {
        return reads[site.ordinal()];
    }

    /**
     * @param size {@code arc_size}
     * @param site a site that uses the number
     * @return what the site's read returns
     */
    long read(AggSum size, Site site) {
        return switch (at(site)) {
            case LOWER_BOUND -> size.lowerBound();
            case UPPER_BOUND -> size.upperBound();
            case VALUE -> size.value();
            case COMPARE -> throw new IllegalStateException("site " + site + " cannot read " + Read.COMPARE);
        };
    }

    /**
     * @param size {@code arc_size}
     * @param site a site
     * @param target the target (u64)
     * @return the sign of {@code arc_size - target} as the site's read sees it; a bound or the value compared as u64,
     *     as C compares a {@code uint64_t} target with an {@code int64_t} lower bound
     */
    int compare(AggSum size, Site site, long target) {
        if (at(site) == Read.COMPARE) {
            return size.compare(target);
        }
        return Integer.signum(Long.compareUnsigned(read(size, site), target));
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Site site : Site.values()) {
            s.append(s.isEmpty() ? "" : ", ").append(site).append('=').append(at(site));
        }
        return s.toString();
    }
}
