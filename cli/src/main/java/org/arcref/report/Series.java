package org.arcref.report;

/**
 * One line of a {@link SvgChart}: a name for the legend, a colour and its points.
 *
 * @param name the legend text
 * @param color a CSS colour, e.g. {@code #1f77b4}
 * @param xs the x values, in increasing order
 * @param ys the y values, as many as {@code xs}
 */
public record Series(String name, String color, double[] xs, double[] ys) {

    /** @throws IllegalArgumentException if {@code xs} and {@code ys} differ in length */
    public Series {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("xs and ys must have the same length, was " + xs.length + " and "
                    + ys.length);
        }
    }
}
