package org.arcref.conformance;

import java.util.List;
import java.util.Set;
import org.arcref.trace.Excerpt;

/**
 * Which fields of a conformance output are compared, for a port that writes only part of the format: all of
 * them, all but some ({@code --ignore}), or only some ({@code --only}). Fields are named by their path as
 * {@link ConformanceFormat#fieldPaths()} lists them ({@code arc_p}, {@code stats.hits}, {@code headers},
 * {@code headers.arc_access}): the path a divergence is printed with, without list indices and labels. A path
 * names the field and everything in it, so {@code stats} stands for every statistic.
 *
 * <p>With {@code --only}, the objects and lists that contain a named field are descended into (a list's
 * elements are matched up by position, so a missing element is still a divergence), and their other fields
 * are not compared.
 *
 * @param ignore the paths not compared; empty unless the filter ignores
 * @param only the paths compared; empty unless the filter selects
 */
public record FieldFilter(List<String> ignore, List<String> only) {

    /** The filter that compares every field. */
    public static final FieldFilter ALL = new FieldFilter(List.of(), List.of());

    /**
     * Checks the paths.
     *
     * @throws IllegalArgumentException naming the option, the rule and the value: for a path that is not a field
     *     of the format, or when both lists are given
     */
    public FieldFilter {
        ignore = List.copyOf(ignore);
        only = List.copyOf(only);
        if (!ignore.isEmpty() && !only.isEmpty()) {
            throw new IllegalArgumentException("--ignore and --only cannot be given together (one names what is "
                    + "not compared, the other what is), were --ignore " + String.join(",", ignore) + " and --only "
                    + String.join(",", only));
        }
        check("--ignore", ignore);
        check("--only", only);
    }

    private static void check(String option, List<String> paths) {
        Set<String> known = ConformanceFormat.fieldPaths();
        for (String p : paths) {
            if (!known.contains(p)) {
                throw new IllegalArgumentException(option + " must name a field of the conformance format, as "
                        + "arc verify prints it without list indices (arc_p, stats.hits, states.mru.esize, evicted, "
                        + "headers.arc_access; docs/conformance.md), was " + Excerpt.of(p));
            }
        }
    }

    /**
     * @param path a field's path without list indices
     * @return whether the field, with everything in it, is compared
     */
    public boolean compares(String path) {
        if (!only.isEmpty()) {
            return only.stream().anyMatch(p -> within(path, p));
        }
        return ignore.stream().noneMatch(p -> within(path, p));
    }

    /**
     * @param path a field's path without list indices
     * @return whether the field is not compared whole but holds a field that is, so its parts must be visited
     */
    public boolean descends(String path) {
        return !compares(path) && only.stream().anyMatch(p -> p.startsWith(path + "."));
    }

    /** @return whether every field is compared */
    public boolean comparesAll() {
        return ignore.isEmpty() && only.isEmpty();
    }

    /** @return what is not compared, in words: {@code everything but arc_p, stats}, {@code headers, evicted} */
    public String notCompared() {
        return only.isEmpty() ? String.join(", ", ignore) : "everything but " + String.join(", ", only);
    }

    private static boolean within(String path, String p) {
        return path.equals(p) || path.startsWith(p + ".");
    }
}
