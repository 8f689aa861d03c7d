package org.arcref.zfs;

/**
 * Argument checks shared by the configuration records and the spec's operations. Every message
 * names the argument, the rule and the rejected value, as in {@code size must be in [512, 16777216],
 * was 0}, in an {@link InvalidArgumentException} that holds the name and the rule apart.
 */
final class Validate {

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

    static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new InvalidArgumentException(name, "must not be null");
        }
        return value;
    }
}
