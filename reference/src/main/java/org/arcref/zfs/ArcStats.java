package org.arcref.zfs;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** An immutable copy of the {@link ArcStat} counters at one moment. */
public final class ArcStats {

    private final long[] values;

    /**
     * @param values one value per {@link ArcStat}, by ordinal; copied
     * @throws IllegalArgumentException if the length does not match
     */
    public ArcStats(long[] values) {
        if (values.length != ArcStat.values().length) {
            throw new IllegalArgumentException("values must have " + ArcStat.values().length
                    + " elements (one per ArcStat), was " + values.length);
        }
        this.values = values.clone();
    }

    /** @param stat a statistic @return its value */
    public long get(ArcStat stat) {
        return values[stat.ordinal()];
    }

    /** @return every statistic by kind, in declaration order */
    public Map<ArcStat, Long> asMap() {
        EnumMap<ArcStat, Long> map = new EnumMap<>(ArcStat.class);
        for (ArcStat s : ArcStat.values()) {
            map.put(s, values[s.ordinal()]);
        }
        return Collections.unmodifiableMap(map);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArcStats other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
