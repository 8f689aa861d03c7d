package org.arcref.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.arcref.trace.Excerpt;

/**
 * The cache sizes of {@code --sizes}: a comma-separated list of elements, each a number of pages ({@code 250}),
 * a size in bytes with a binary suffix {@code K}, {@code M} or {@code G} (1024, 1024², 1024³ bytes; {@code 64M}),
 * which must be a whole number of pages of {@code --page-size}, or a percentage of the workload's unique pages
 * ({@code 1%}, {@code 0.5%}), rounded down and at least 2 pages. Every size is at least 2 pages and fits this JVM
 * ({@link Limits}).
 *
 * <p>Everything that can be checked before the workload is loaded is checked by {@link #parse}: the syntax, an
 * empty element ({@code 10,}), a size repeated as written ({@code 100,100}), pages and bytes. Percentages are
 * resolved by {@link #pages} once the unique pages are known, where two elements that come to the same number of
 * pages ({@code 1%} and {@code 64} of a small trace) are an error too: a size is replayed once. Every error names
 * the option, the rule and the value.
 */
final class CacheSizes {

    private static final Pattern FIXED = Pattern.compile("([0-9]+)([KMG]?)", Pattern.CASE_INSENSITIVE);

    private final String option;
    private final List<String> texts;
    private final List<Long> fixed;
    private final List<Percentage> percents;
    private final Limits limits;

    private CacheSizes(String option, List<String> texts, List<Long> fixed, List<Percentage> percents, Limits limits) {
        this.option = option;
        this.texts = texts;
        this.fixed = fixed;
        this.percents = percents;
        this.limits = limits;
    }

    /**
     * @param option the option, as typed ({@code --sizes})
     * @param text its value
     * @param pageSize bytes per page, for sizes in bytes
     * @param limits this JVM's limits
     * @return the sizes, checked as far as they can be without the workload
     * @throws IllegalArgumentException naming the option, the rule and the value
     */
    static CacheSizes parse(String option, String text, long pageSize, Limits limits) {
        List<String> texts = new ArrayList<>();
        List<Long> fixed = new ArrayList<>();
        List<Percentage> percents = new ArrayList<>();
        for (String element : text.split(",", -1)) {
            String e = element.strip();
            if (e.isEmpty()) {
                throw new IllegalArgumentException(option + " must be a comma-separated list without empty elements, "
                        + "was " + Excerpt.of(text));
            }
            if (texts.contains(e)) {
                throw new IllegalArgumentException(option + " must not repeat a size (it would be replayed twice), "
                        + "was " + Excerpt.of(e) + " twice in " + Excerpt.of(text));
            }
            Matcher m = FIXED.matcher(e);
            Optional<Percentage> percent = Percentage.parse(e);
            if (!m.matches() && percent.isEmpty()) {
                throw new IllegalArgumentException(option + " elements must be pages (250), bytes with K, M or G "
                        + "(64M) or a percentage of the unique pages (1%), was " + Excerpt.of(e));
            }
            texts.add(e);
            if (percent.isPresent()) {
                if (!percent.get().within(100, true)) {
                    throw new IllegalArgumentException(option + " percentages must be in (0%, 100%], was "
                            + Excerpt.of(e));
                }
                fixed.add(null);
                percents.add(percent.get());
            } else {
                long pages = pages(option, e, m.group(1), m.group(2), pageSize);
                requirePages(option, e, pages, limits);
                fixed.add(pages);
                percents.add(null);
            }
        }
        return new CacheSizes(option, texts, fixed, percents, limits);
    }

    /** @return whether a size depends on the workload (a percentage) */
    boolean relative() {
        return percents.stream().anyMatch(p -> p != null);
    }

    /**
     * @param unique the workload's distinct pages
     * @return the sizes in pages, in the order given
     * @throws IllegalArgumentException naming the option and the elements if two come to the same size, or if a
     *     percentage comes to more pages than this JVM holds
     */
    List<Integer> pages(long unique) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            long pages;
            if (fixed.get(i) != null) {
                pages = fixed.get(i);
            } else {
                pages = Math.max(2, percents.get(i).of(unique));
                limits.requirePages(option, pages);
            }
            int same = out.indexOf((int) pages);
            if (same >= 0) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "%s must not repeat a size (it would be "
                        + "replayed twice), was %s and %s, both %d pages of a workload of %d unique pages", option,
                        Excerpt.of(texts.get(same)), Excerpt.of(texts.get(i)), pages, unique));
            }
            out.add((int) pages);
        }
        return out;
    }

    private static long pages(String option, String element, String digits, String suffix, long pageSize) {
        long number;
        try {
            number = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " elements must be at most " + Long.MAX_VALUE + ", was "
                    + Excerpt.of(element), e);
        }
        if (suffix.isEmpty()) {
            return number;
        }
        int shift = switch (suffix.toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            default -> 30;
        };
        if (number > Long.MAX_VALUE >> shift) {
            throw new IllegalArgumentException(option + " in bytes must be at most " + Long.MAX_VALUE + " bytes, was "
                    + Excerpt.of(element));
        }
        long bytes = number << shift;
        if (bytes % pageSize != 0) {
            throw new IllegalArgumentException(option + " in bytes must be whole pages of --page-size "
                    + pageSize + ", was " + Excerpt.of(element) + " = " + bytes + " bytes");
        }
        return bytes / pageSize;
    }

    private static void requirePages(String option, String element, long pages, Limits limits) {
        if (pages < 2) {
            throw new IllegalArgumentException(option + " must all be >= 2, was " + element
                    + (String.valueOf(pages).equals(element) ? "" : " = " + pages + " pages"));
        }
        limits.requirePages(option, pages);
    }
}
