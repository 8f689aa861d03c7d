package org.arcref.explore;

import org.arcref.trace.Excerpt;

/**
 * One of {@code count} disjoint parts of the try space: the tries {@code t} with {@code t % count == index}.
 *
 * @param index this part, {@code 0 … count-1}
 * @param count the number of parts, at least 1
 */
public record Shard(int index, int count) {

    /** The whole try space. */
    public static final Shard ALL = new Shard(0, 1);

    /** @throws IllegalArgumentException unless {@code 0 <= index < count} */
    public Shard {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("--shard must be i/n with 0 <= i < n, was " + index + "/" + count);
        }
    }

    /**
     * @param text {@code i/n}
     * @return the shard
     * @throws IllegalArgumentException if {@code text} is not {@code i/n} with {@code 0 <= i < n}
     */
    public static Shard parse(String text) {
        String[] parts = text.split("/", -1);
        try {
            if (parts.length == 2) {
                return new Shard(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--shard must be i/n with 0 <= i < n, was " + Excerpt.of(text));
    }

    /**
     * @param tries the size of the whole try space
     * @return how many of those tries are in this shard
     */
    public long triesOf(long tries) {
        return tries <= index ? 0 : (tries - index + count - 1) / count;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
