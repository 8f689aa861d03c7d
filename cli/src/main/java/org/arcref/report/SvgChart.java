package org.arcref.report;

import java.util.List;
import java.util.Locale;

/**
 * Renders a chart as one self-contained inline SVG element (no scripts, no external references): axes with ticks,
 * a title, axis labels, and either lines ({@link #lines}) or bars ({@link #bars}), with a legend.
 *
 * <p>Layout: a fixed 760×340 view box; the plot area leaves margins for the labels. X may be logarithmic (base 2,
 * for cache sizes and durations); Y is linear from 0 (or from the smallest value if negative) to the largest value,
 * rounded up to a "nice" step (1, 2 or 5 times a power of ten).
 */
public final class SvgChart {

    private static final int WIDTH = 760;
    private static final int HEIGHT = 340;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 36;
    private static final int BOTTOM = 50;
    private static final int TICKS = 5;

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
     * @param series the lines, drawn as polylines
     * @return the {@code <svg>} element
     */
    public String lines(List<Series> series) {
        Scale s = scale(series);
        StringBuilder sb = frame(s);
        for (Series line : series) {
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < line.xs().length; i++) {
                pts.append(fmt(s.px(line.xs()[i]))).append(',').append(fmt(s.py(line.ys()[i]))).append(' ');
            }
            sb.append("<polyline class=\"series\" fill=\"none\" stroke=\"").append(escape(line.color()))
                    .append("\" stroke-width=\"1.5\" points=\"").append(pts.toString().strip()).append("\"/>\n");
        }
        legend(sb, series);
        return sb.append("</svg>\n").toString();
    }

    /**
     * @param bars one series whose points are the bars' centres (x) and heights (y)
     * @return the {@code <svg>} element
     */
    public String bars(Series bars) {
        Scale s = scale(List.of(bars));
        StringBuilder sb = frame(s);
        int n = bars.xs().length;
        double width = Math.max(2, (WIDTH - LEFT - RIGHT) / (double) Math.max(n, 1) * 0.8);
        for (int i = 0; i < n; i++) {
            double x = s.px(bars.xs()[i]) - width / 2;
            double y = s.py(bars.ys()[i]);
            sb.append("<rect class=\"bar\" x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y))
                    .append("\" width=\"").append(fmt(width)).append("\" height=\"")
                    .append(fmt(Math.max(0, s.py(s.yMin) - y))).append("\" fill=\"").append(escape(bars.color()))
                    .append("\"/>\n");
        }
        legend(sb, List.of(bars));
        return sb.append("</svg>\n").toString();
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
            double v = s.yMin + (s.yMax - s.yMin) * i / s.yTicks();
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
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>%n",
                    x, y - 4, escape(s.color())));
            sb.append(text(x + 20, y + 1, "start", "legend", s.name(), 12));
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
            xMin = logX ? 1 : 0;
            xMax = xMin + 1;
        }
        if (logX && xMin <= 0) {
            throw new IllegalArgumentException("x must be > 0 on a logarithmic axis, was " + xMin);
        }
        if (!(yMax > yMin)) {
            yMax = yMin + 1;
        }
        double step = niceStep((yMax - yMin) / TICKS);
        int ticks = (int) Math.max(1, Math.ceil((yMax - yMin) / step - 1e-9));
        return new Scale(xMin, xMax == xMin ? xMin + 1 : xMax, yMin, yMin + step * ticks, ticks, logX);
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

    /** Maps values to the plot area. */
    private record Scale(double xMin, double xMax, double yMin, double yMax, int yTicks, boolean logX) {
        double px(double x) {
            double f = logX ? (log2(x) - log2(xMin)) / (log2(xMax) - log2(xMin)) : (x - xMin) / (xMax - xMin);
            return LEFT + f * (WIDTH - LEFT - RIGHT);
        }

        double py(double y) {
            return HEIGHT - BOTTOM - (y - yMin) / (yMax - yMin) * (HEIGHT - BOTTOM - TOP);
        }

        double[] xTicks() {
            double[] ticks = new double[TICKS + 1];
            for (int i = 0; i <= TICKS; i++) {
                ticks[i] = logX ? Math.pow(2, log2(xMin) + (log2(xMax) - log2(xMin)) * i / TICKS)
                        : xMin + (xMax - xMin) * i / TICKS;
            }
            return ticks;
        }

        private static double log2(double v) {
            return Math.log(v) / Math.log(2);
        }
    }

    private static String label(double v) {
        double a = Math.abs(v);
        if (a >= 1e9) {
            return String.format(Locale.ROOT, "%.3gG", v / 1e9);
        } else if (a >= 1e6) {
            return String.format(Locale.ROOT, "%.3gM", v / 1e6);
        } else if (a >= 1e4) {
            return String.format(Locale.ROOT, "%.3gk", v / 1e3);
        }
        if (a >= 10 || a == Math.rint(a)) {
            return String.format(Locale.ROOT, "%d", Math.round(v));
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** @return {@code s} with the XML special characters escaped */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
