package org.arcref.cli;

import java.util.Optional;
import java.util.regex.Pattern;
import org.arcref.trace.Excerpt;

/**
 * The warm-up of {@code --warmup}: the first requests of a workload, given as a count ({@code 10000}) or as a
 * percentage of the requests ({@code 10%}, rounded down, below 100%), fill the cache but are not counted in its hit
 * ratio. At least one request must remain to be counted.
 */
final class Warmup {

    private static final Pattern COUNT = Pattern.compile("[0-9]+");

    private final String option;
    private final String text;
    private final Optional<Percentage> percent;

    private Warmup(String option, String text, Optional<Percentage> percent) {
        this.option = option;
        this.text = text;
        this.percent = percent;
    }

    /**
     * @param option the option, as typed ({@code --warmup})
     * @param text its value
     * @return the warm-up, its syntax checked
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    static Warmup parse(String option, String text) {
        Optional<Percentage> percent = Percentage.parse(text);
        boolean zero = percent.isPresent() && percent.get().value().signum() == 0;
        if (percent.isEmpty() && !COUNT.matcher(text).matches()
                || percent.isPresent() && !zero && !percent.get().within(100, false)) {
            throw new IllegalArgumentException(option + " must be a number of requests (10000) or a percentage of "
                    + "them below 100% (10%), was " + Excerpt.of(text));
        }
        return new Warmup(option, text, percent);
    }

    /**
     * @param total the workload's requests
     * @return the requests of the warm-up, in [0, total)
     * @throws IllegalArgumentException naming the option and the value if it leaves no request to count
     */
    int requests(int total) {
        long n = percent.isPresent() ? percent.get().of(total) : count();
        if (n >= total) {
            throw new IllegalArgumentException(option + " must leave requests to count: at most " + (total - 1)
                    + " of the workload's " + total + " requests, was " + text);
        }
        return (int) n;
    }

    private long count() {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }
}
