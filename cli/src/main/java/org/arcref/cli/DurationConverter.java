package org.arcref.cli;

import java.time.Duration;
import java.util.Locale;
import org.arcref.trace.Excerpt;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses {@code --duration}: a positive number with a unit {@code ms}, {@code s}, {@code m} or {@code h}, or a plain
 * number of seconds, at most {@link #MAX}: a duration is measured in nanoseconds in a {@code long} from a start
 * time, so anything longer would overflow.
 */
final class DurationConverter implements ITypeConverter<Duration> {

    /**
     * The longest duration, 100 years: its nanoseconds (3.2e18) fit a {@code long} (9.2e18) with room for the
     * deadline arithmetic ({@code now - start < nanos}).
     */
    static final Duration MAX = Duration.ofDays(36_500);

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Duration d;
        try {
            if (v.endsWith("ms")) {
                d = Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                d = Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                d = Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("h")) {
                d = Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            } else {
                d = Duration.ofSeconds(Long.parseLong(v));
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw new TypeConversionException("must be a positive duration such as 500ms, 30s, 5m or 1h, was "
                    + Excerpt.of(value));
        }
        if (d.isNegative() || d.isZero()) {
            throw new TypeConversionException("must be a positive duration such as 500ms, 30s, 5m or 1h, was "
                    + Excerpt.of(value));
        }
        if (d.compareTo(MAX) > 0) {
            throw new TypeConversionException("must be at most " + MAX.toDays() + " days (876000h), was "
                    + Excerpt.of(value));
        }
        return d;
    }
}
