package org.arcref.report;

/**
 * One line of a {@link SvgChart}: a name for the legend, a colour, a dash pattern and its points.
 *
 * @param name the legend text
 * @param color a CSS colour, e.g. {@code #1f77b4}
 * @param dash an SVG {@code stroke-dasharray} ({@code "6 3"}), or empty for a solid line
 * @param xs the x values, in increasing order
 * @param ys the y values, as many as {@code xs}
 */
public record Series(String name, String color, String dash, double[] xs, double[] ys) {

    /** The dash patterns given to series in turn, so that lines that coincide stay told apart. */
    public static final String[] DASHES = {"", "7 4", "2 3", "10 3 2 3", "4 4", "1 5", "12 6"};

    /** @throws IllegalArgumentException if {@code xs} and {@code ys} differ in length */
    public Series {
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("xs and ys must have the same length, was " + xs.length + " and "
                    + ys.length);
        }
    }
}
