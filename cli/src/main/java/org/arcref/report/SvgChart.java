package org.arcref.report;

import java.util.List;
import java.util.Locale;

/**
 * Renders a chart as one self-contained inline SVG element (no scripts, no external references): axes with ticks,
 * a title, axis labels, and either lines ({@link #lines}) or a histogram ({@link #histogram}), with a legend.
 *
 * <p>Layout: a fixed 760×340 view box; the plot area leaves margins for the labels. Axes are honest and round: Y is
 * linear from 0 (or from the smallest value if negative) to the largest value rounded up to a "nice" step (1, 2 or
 * 5 times a power of ten), with a tick at every step; a linear X does the same from 0 when no x is negative; a
 * logarithmic X (base 2, for cache sizes and durations) runs between powers of two, with a tick at each (or at every
 * second, fourth, … when there are more than {@value #MAX_LOG_TICKS}).
 *
 * <p>No line hides another: lines are drawn in order, each over the last, with their series' dash patterns
 * ({@link Series#DASHES}), the earlier ones wider, so that one drawn exactly on top of another leaves the other's
 * edges showing; a series of few points also gets a marker at each, so that a single point (one cache size) shows.
 */
public final class SvgChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 340;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 36;
    private static final int BOTTOM = 50;
    private static final int TICKS = 5;
    private static final int MAX_LOG_TICKS = 8;
    private static final int MARKED_POINTS = 40;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;

    /**
     * @param title the title
     * @param xLabel the x axis's label
     * @param yLabel the y axis's label
     * @param logX whether x is on a base-2 logarithmic scale (all x must then be positive)
     */
    public SvgChart(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    /**
     * @param series the lines, drawn as polylines in order (see the class comment)
     * @return the {@code <svg>} element
     */
    public String lines(List<Series> series) {
        Scale s = scale(series);
        StringBuilder sb = frame(s);
        for (int k = 0; k < series.size(); k++) {
            Series line = series.get(k);
            double width = 1.5 + 2.0 * (series.size() - 1 - k) / Math.max(1, series.size() - 1);
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < line.xs().length; i++) {
                pts.append(fmt(s.px(line.xs()[i]))).append(',').append(fmt(s.py(line.ys()[i]))).append(' ');
            }
            sb.append("<polyline class=\"series\" fill=\"none\" stroke=\"").append(escape(line.color()))
                    .append("\" stroke-width=\"").append(fmt(width)).append('"').append(dash(line))
                    .append(" points=\"").append(pts.toString().strip()).append("\"/>\n");
            if (line.xs().length <= MARKED_POINTS) {
                for (int i = 0; i < line.xs().length; i++) {
                    sb.append("<circle class=\"marker\" cx=\"").append(fmt(s.px(line.xs()[i]))).append("\" cy=\"")
                            .append(fmt(s.py(line.ys()[i]))).append("\" r=\"").append(fmt(1.5 + width))
                            .append("\" fill=\"").append(escape(line.color())).append("\"/>\n");
                }
            }
        }
        legend(sb, series);
        return sb.append("</svg>\n").toString();
    }

    /**
     * A histogram: one bar per bin, spanning the bin's x range, as high as its count.
     *
     * @param name the legend text
     * @param color the bars' CSS colour
     * @param lo each bin's lower x bound, increasing; on a logarithmic axis a bound of 0 is drawn at half the upper
     * @param hi each bin's upper x bound
     * @param counts each bin's count
     * @return the {@code <svg>} element
     * @throws IllegalArgumentException if the arrays differ in length
     */
    public String histogram(String name, String color, double[] lo, double[] hi, double[] counts) {
        if (lo.length != hi.length || lo.length != counts.length) {
            throw new IllegalArgumentException("lo, hi and counts must have the same length, was " + lo.length + ", "
                    + hi.length + " and " + counts.length);
        }
        double[] from = new double[lo.length];
        for (int i = 0; i < lo.length; i++) {
            from[i] = logX && lo[i] <= 0 ? hi[i] / 2 : lo[i];
        }
        double[] edges = new double[2 * lo.length];
        double[] heights = new double[2 * lo.length];
        for (int i = 0; i < lo.length; i++) {
            edges[2 * i] = from[i];
            edges[2 * i + 1] = hi[i];
            heights[2 * i] = counts[i];
            heights[2 * i + 1] = counts[i];
        }
        Series bins = new Series(name, color, "", edges, heights);
        Scale s = scale(List.of(bins));
        StringBuilder sb = frame(s);
        for (int i = 0; i < lo.length; i++) {
            double x = s.px(from[i]);
            double y = s.py(counts[i]);
            sb.append("<rect class=\"bar\" x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y))
                    .append("\" width=\"").append(fmt(Math.max(1, s.px(hi[i]) - x))).append("\" height=\"")
                    .append(fmt(Math.max(0, s.py(s.yMin) - y))).append("\" fill=\"").append(escape(color))
                    .append("\" stroke=\"white\" stroke-width=\"0.5\"/>\n");
        }
        legend(sb, List.of(bins));
        return sb.append("</svg>\n").toString();
    }

    private static String dash(Series line) {
        return line.dash().isEmpty() ? "" : " stroke-dasharray=\"" + escape(line.dash()) + "\"";
    }

    private StringBuilder frame(Scale s) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH,
                HEIGHT));
        sb.append("<title>").append(escape(title)).append("</title>\n");
        sb.append(text(WIDTH / 2.0 - RIGHT / 2.0, 20, "middle", "title", title, 14));
        int x0 = LEFT;
        int x1 = WIDTH - RIGHT;
        int y0 = HEIGHT - BOTTOM;
        int y1 = TOP;
        sb.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                + "stroke=\"black\"/>%n", x0, y0, x1, y0));
        sb.append(String.format(Locale.ROOT, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                + "stroke=\"black\"/>%n", x0, y0, x0, y1));
        for (double v : s.xTicks()) {
            double px = s.px(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\" stroke=\"black\"/>%n",
                    fmt(px), y0, fmt(px), y0 + 4));
            sb.append(text(px, y0 + 17, "middle", "tick", label(v), 11));
        }
        for (int i = 0; i <= s.yTicks(); i++) {
            double v = s.yMin + s.yStep() * i;
            double py = s.py(v);
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\" stroke=\"#ddd\"/>%n",
                    x0, fmt(py), x1, fmt(py)));
            sb.append(text(x0 - 6, py + 4, "end", "tick", label(v), 11));
        }
        sb.append(text((x0 + x1) / 2.0, HEIGHT - 12, "middle", "xlabel", xLabel, 12));
        sb.append(String.format(Locale.ROOT, "<text class=\"ylabel\" x=\"16\" y=\"%d\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 16 %d)\">%s</text>%n", (y0 + y1) / 2, (y0 + y1) / 2, escape(yLabel)));
        return sb;
    }

    private static void legend(StringBuilder sb, List<Series> series) {
        int y = TOP + 10;
        for (Series s : series) {
            int x = WIDTH - RIGHT + 14;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" "
                    + "stroke-width=\"3\"%s/>%n", x, y - 3, x + 24, y - 3, escape(s.color()), dash(s)));
            sb.append(text(x + 30, y + 1, "start", "legend", s.name(), 12));
            y += 18;
        }
    }

    private static String text(double x, double y, String anchor, String cls, String content, int size) {
        return String.format(Locale.ROOT, "<text class=\"%s\" x=\"%s\" y=\"%s\" text-anchor=\"%s\" font-size=\"%d\">"
                + "%s</text>%n", cls, fmt(x), fmt(y), anchor, size, escape(content));
    }

    private Scale scale(List<Series> series) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = 0;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.xs().length; i++) {
                xMin = Math.min(xMin, s.xs()[i]);
                xMax = Math.max(xMax, s.xs()[i]);
                yMin = Math.min(yMin, s.ys()[i]);
                yMax = Math.max(yMax, s.ys()[i]);
            }
        }
        if (xMin > xMax) {
            xMin = 1;
            xMax = 1;
        }
        if (logX && xMin <= 0) {
            throw new IllegalArgumentException("x must be > 0 on a logarithmic axis, was " + xMin);
        }
        if (!(yMax > yMin)) {
            yMax = yMin + 1;
        }
        double yStep = niceStep((yMax - yMin) / TICKS);
        int yTicks = (int) Math.max(1, Math.ceil((yMax - yMin) / yStep - 1e-9));
        double[] xTicks;
        if (logX) {
            int e0 = (int) Math.floor(log2(xMin));
            int e1 = (int) Math.ceil(log2(xMax));
            if (e1 == e0) {
                e0--;
                e1++;
            }
            int every = 1;
            while ((e1 - e0) / every > MAX_LOG_TICKS) {
                every *= 2;
            }
            xMin = Math.pow(2, e0);
            xMax = Math.pow(2, e1);
            List<Double> ticks = new java.util.ArrayList<>();
            for (int e = e0; e <= e1; e += every) {
                ticks.add(Math.pow(2, e));
            }
            xTicks = ticks.stream().mapToDouble(Double::doubleValue).toArray();
        } else {
            double from = xMin >= 0 ? 0 : xMin;
            double xStep = niceStep(Math.max(xMax - from, 1) / TICKS);
            int n = (int) Math.max(1, Math.ceil((xMax - from) / xStep - 1e-9));
            xMin = from;
            xMax = from + xStep * n;
            xTicks = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                xTicks[i] = from + xStep * i;
            }
        }
        return new Scale(xMin, xMax, xTicks, yMin, yStep, yTicks, logX);
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    /** Maps values to the plot area. */
    private record Scale(double xMin, double xMax, double[] xTicks, double yMin, double yStep, int yTicks,
            boolean logX) {

        double yMax() {
            return yMin + yStep * yTicks;
        }

        double px(double x) {
            double f = logX ? (log2(x) - log2(xMin)) / (log2(xMax) - log2(xMin)) : (x - xMin) / (xMax - xMin);
            return LEFT + f * (WIDTH - LEFT - RIGHT);
        }

        double py(double y) {
            return HEIGHT - BOTTOM - (y - yMin) / (yMax() - yMin) * (HEIGHT - BOTTOM - TOP);
        }
    }

    private static String label(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return significant(v / 1e9) + "G";
        } else if (a >= 1e6) {
            return significant(v / 1e6) + "M";
        } else if (a >= 1e4 && a % 1000 == 0) {
            return significant(v / 1e3) + "k";
        }
        if (a >= 10 || a == Math.rint(a)) {
            return String.format(Locale.ROOT, "%d", Math.round(v));
        }
        return significant(v);
    }

    /** @return {@code v} to three significant digits, without trailing zeros ({@code 1}, {@code 2.5}, {@code 0.125}) */
    private static String significant(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** @return {@code s} with the XML special characters escaped */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
