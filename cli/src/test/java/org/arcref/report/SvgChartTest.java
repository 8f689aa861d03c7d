package org.arcref.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Report charts: no series hides another, one point still draws, round ticks from 0, honest bars. */
class SvgChartTest {

    private static List<String> all(String svg, String regex) {
        Matcher m = Pattern.compile(regex).matcher(svg);
        List<String> found = new ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    private static List<String> tickLabels(String svg) {
        return all(svg, "<text class=\"tick\"[^>]*>([^<]*)</text>");
    }

    @Test
    void coincidingLinesDifferInDashAndWidthAndTheFirstIsWidest() {
        double[] xs = {0, 10, 20};
        double[] ys = {5, 5, 5};
        String svg = new SvgChart("t", "x", "y", false).lines(List.of(new Series("a", "#111111", Series.DASHES[0], xs,
                ys), new Series("b", "#222222", Series.DASHES[1], xs, ys)));
        List<String> widths = all(svg, "<polyline class=\"series\"[^>]*stroke-width=\"([0-9.]+)\"");
        assertEquals(List.of("3.5", "1.5"), widths, "the first line is wider, so its edges show under the second");
        assertTrue(svg.contains("stroke-dasharray=\"7 4\""), svg);
    }

    @Test
    void aSingleCacheSizeIsDrawnAsAMarkerBetweenPowersOfTwo() {
        String svg = new SvgChart("t", "size", "hit %", true).lines(List.of(new Series("zfs", "#111111", "",
                new double[] {1000}, new double[] {42})));
        assertEquals(1, all(svg, "<circle class=\"marker\" cx=\"([0-9.]+)\"").size(), svg);
        List<String> labels = tickLabels(svg);
        assertTrue(labels.containsAll(List.of("512", "1024")), labels.toString());
    }

    @Test
    void ticksAreRoundAndStartAtZero() {
        String svg = new SvgChart("t", "requests", "pages", false).lines(List.of(new Series("c", "#111111", "",
                new double[] {1234, 5000, 987_654}, new double[] {3, 70, 333})));
        List<String> labels = tickLabels(svg);
        assertEquals(List.of("0", "200k", "400k", "600k", "800k", "1M", "0", "100", "200", "300", "400"), labels);
    }

    @Test
    void histogramBarsSpanTheirBinsAndTouch() {
        String svg = new SvgChart("t", "us", "n", true).histogram("w", "#111111", new double[] {1, 2, 4},
                new double[] {2, 4, 8}, new double[] {5, 10, 5});
        List<String> xs = all(svg, "<rect class=\"bar\" x=\"([0-9.]+)\"");
        List<String> widths = all(svg, "<rect class=\"bar\"[^>]*? width=\"([0-9.]+)\"");
        assertEquals(3, xs.size());
        for (int i = 0; i + 1 < xs.size(); i++) {
            assertEquals(Double.parseDouble(xs.get(i)) + Double.parseDouble(widths.get(i)),
                    Double.parseDouble(xs.get(i + 1)), 0.11, "bar " + i + " ends where the next begins");
        }
        assertEquals(widths.get(0), widths.get(1), "a doubling is as wide as the next on a log axis");
    }
}
