package org.arcref.zfs;

/**
 * Argument checks shared by the configuration records and the spec's operations; {@link #notNull} is the null check
 * of every module. Every message
 * names the argument, the rule and the rejected value, as in {@code size must be in [512, 16777216],
 * was 0}, in an {@link InvalidArgumentException} that holds the name and the rule apart.
 */
public final class Validate {

    private Validate() {
    }

    static void range(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new InvalidArgumentException(name, "must be in [" + min + ", " + max + "], was " + value);
        }
    }

    static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new InvalidArgumentException(name, "must be >= " + min + ", was " + value);
        }
    }

    static void multipleOf(String name, long value, long unit) {
        if (value % unit != 0) {
            throw new InvalidArgumentException(name, "must be a multiple of " + unit + ", was " + value);
        }
    }

    static void powerOfTwo(String name, long value) {
        if (value <= 0 || Long.bitCount(value) != 1) {
            throw new InvalidArgumentException(name, "must be a power of two, was " + value);
        }
    }

    /**
     * The one null check of the project's public constructors and operations.
     *
     * @param name the argument's name
     * @param value the argument
     * @param <T> its type
     * @return {@code value}
     * @throws InvalidArgumentException ({@code name must not be null}) if {@code value} is null
     */
    public static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new InvalidArgumentException(name, "must not be null");
        }
        return value;
    }
}
