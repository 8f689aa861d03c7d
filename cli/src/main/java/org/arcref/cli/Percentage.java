package org.arcref.cli;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A percentage as the command line writes it, {@code 10%} or {@code 0.5%} (ASCII digits, an optional fraction, the
 * sign), taken of a whole and rounded down: the form that {@code --sizes} and {@code --warmup} share.
 *
 * @param value the number before the sign, {@code >= 0}
 */
record Percentage(BigDecimal value) {

    private static final Pattern SYNTAX = Pattern.compile("[0-9]+(\\.[0-9]+)?%");
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    /**
     * @param text an option's element
     * @return the percentage it writes, or empty if it is not one
     */
    static Optional<Percentage> parse(String text) {
        return SYNTAX.matcher(text).matches()
                ? Optional.of(new Percentage(new BigDecimal(text.substring(0, text.length() - 1))))
                : Optional.empty();
    }

    /** @return whether it is more than 0% and below {@code max} percent, or at most {@code max} if inclusive */
    boolean within(int max, boolean inclusive) {
        int c = value.compareTo(BigDecimal.valueOf(max));
        return value.signum() > 0 && (inclusive ? c <= 0 : c < 0);
    }

    /**
     * @param whole the whole, {@code >= 0}
     * @return this percentage of it, rounded down
     */
    long of(long whole) {
        return value.multiply(BigDecimal.valueOf(whole)).divideToIntegralValue(HUNDRED).longValueExact();
    }
}
