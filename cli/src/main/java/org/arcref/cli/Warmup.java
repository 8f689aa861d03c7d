package org.arcref.cli;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.arcref.trace.Excerpt;

/**
 * The warm-up of {@code --warmup}: the first requests of a workload, given as a count ({@code 10000}) or as a
 * percentage of the requests ({@code 10%}, rounded down), fill the cache but are not counted in its hit ratio. At
 * least one request must remain to be counted.
 */
final class Warmup {

    private static final Pattern SYNTAX = Pattern.compile("([0-9]+)|([0-9]+(?:\\.[0-9]+)?)%");
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private final String option;
    private final String text;
    private final Matcher m;

    private Warmup(String option, String text, Matcher m) {
        this.option = option;
        this.text = text;
        this.m = m;
    }

    /**
     * @param option the option, as typed ({@code --warmup})
     * @param text its value
     * @return the warm-up, its syntax checked
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    static Warmup parse(String option, String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches() || m.group(2) != null && new BigDecimal(m.group(2)).compareTo(HUNDRED) >= 0) {
            throw new IllegalArgumentException(option + " must be a number of requests (10000) or a percentage of "
                    + "them below 100% (10%), was " + Excerpt.of(text));
        }
        return new Warmup(option, text, m);
    }

    /**
     * @param total the workload's requests
     * @return the requests of the warm-up, in [0, total)
     * @throws IllegalArgumentException naming the option and the value if it leaves no request to count
     */
    int requests(int total) {
        long n = m.group(1) != null ? parseCount() : new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(total))
                .divideToIntegralValue(HUNDRED).longValueExact();
        if (n >= total) {
            throw new IllegalArgumentException(option + " must leave requests to count: at most " + (total - 1)
                    + " of the workload's " + total + " requests, was " + text);
        }
        return (int) n;
    }

    private long parseCount() {
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
