package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Assumptions;

/**
 * Renders an {@code arc report} page in headless Chromium and lists what a person looking at it would find wrong:
 * a chart missing, an axis not drawn, a legend that does not name every series, a series with no line, or a line
 * hidden under another.
 *
 * <p>Contract. {@link #chromium()} returns Chromium's path ({@code -Dreport.chromium=PATH}, default
 * {@code /usr/bin/chromium}); where it is missing the calling test fails with the command that installs it, and it
 * is skipped only on purpose, with {@code -Dreport.chromium.skip=true} (docs/report.md, "Rendering check").
 * {@link #render} renders a page; {@link #check} compares the rendering with the charts the page should have and
 * returns one line per problem, empty when there is none.
 *
 * <p>Implementation overview. Chromium runs twice, headless, with a fresh profile and nothing that reaches the
 * network: once on the page as written, for a screenshot; once on a copy with {@code measure-report.js} appended,
 * which writes the rendered geometry and computed colours of every axis, tick label, line, bar and legend into a
 * hidden element that {@code --dump-dom} prints, and takes a second screenshot. The two screenshots must be
 * identical, so that the script changed nothing a person sees. Every check then reads both: the DOM after layout
 * (each line has its points, a length and a computed colour, each legend entry a swatch) and the pixels (each axis
 * is inked along its length, each series' colour shows in the plot area and in its legend swatch). A line counts as
 * visible when at least {@value #MIN_LINE_PIXELS} pixels of the plot area are within {@value #TOLERANCE} (RGB
 * distance) of its colour; the report's seven colours are at least 76 apart (#1f77b4 and #17becf), and a line drawn
 * under an equal, wider one of another colour leaves none. The measured counts are printed to the test log.
 */
final class BrowserCheck {

    /** The system property naming Chromium's executable. */
    static final String CHROMIUM = "report.chromium";
    /** The system property that skips the browser checks on purpose. */
    static final String SKIP = "report.chromium.skip";
    /** How Chromium is installed on Debian (Ubuntu has it only as a snap). */
    static final String INSTALL = "apt-get install -y chromium";

    private static final int WIDTH = 900;
    private static final int HEIGHT = 2600;
    private static final int TOLERANCE = 40;
    private static final int MIN_LINE_PIXELS = 20;
    private static final int MIN_SWATCH_PIXELS = 4;
    private static final int MIN_TEXT_PIXELS = 5;
    private static final double MIN_AXIS_INK = 0.9;
    private static final long TIMEOUT_SECONDS = 60;
    private static final Pattern MEASURED = Pattern.compile("<pre id=\"arcref-measure\"[^>]*>(.*?)</pre>",
            Pattern.DOTALL);

    private BrowserCheck() {
    }

    /**
     * A chart the page should have.
     *
     * @param title the chart's title (its SVG {@code <title>})
     * @param series the names its legend must give, in order
     * @param points the points of each line, or 0 for a histogram (bars)
     */
    record Chart(String title, List<String> series, int points) {
    }

    /**
     * What Chromium rendered.
     *
     * @param rows the measurements, one array of tab-separated fields per line of {@code measure-report.js}
     * @param screenshot the page as written, {@value #WIDTH} by {@value #HEIGHT} pixels
     */
    record Rendering(List<String[]> rows, BufferedImage screenshot) {
    }

    /**
     * @return Chromium's executable; fails the calling test naming {@link #INSTALL} if it is missing, and skips it
     *     only if {@code -Dreport.chromium.skip=true}
     */
    static Path chromium() {
        return chromium(System.getProperty(CHROMIUM, "/usr/bin/chromium"), Boolean.getBoolean(SKIP));
    }

    /** {@link #chromium()} with the two properties given. */
    static Path chromium(String path, boolean skip) {
        Assumptions.assumeFalse(skip, "the browser check is skipped on purpose (-D" + SKIP + "=true)");
        Path chromium = Path.of(path);
        if (!Files.isExecutable(chromium)) {
            fail("Chromium is not installed at " + chromium + ": install it with '" + INSTALL + "' (Debian's "
                    + "package; .ci/run installs it), point -D" + CHROMIUM + "=PATH at another, or skip the browser "
                    + "check on purpose with -D" + SKIP + "=true");
        }
        return chromium;
    }

    /**
     * Renders {@code html} in headless Chromium.
     *
     * @param chromium Chromium's executable
     * @param html the page
     * @param work an empty folder for the profiles, the copy, the screenshots and the logs
     * @return what Chromium rendered
     */
    static Rendering render(Path chromium, Path html, Path work) throws IOException, InterruptedException {
        Path plain = work.resolve("page.png");
        run(chromium, work, "plain", html, plain);
        String script;
        try (InputStream in = BrowserCheck.class.getResourceAsStream("measure-report.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String page = Files.readString(html);
        assertTrue(page.contains("</body>"), "no </body> in " + html);
        Path copy = Files.writeString(work.resolve("measured.html"),
                page.replace("</body>", "<script>//<![CDATA[\n" + script + "\n//]]></script>\n</body>"));
        Path measuredPng = work.resolve("measured.png");
        String dom = run(chromium, work, "measured", copy, measuredPng);
        Matcher m = MEASURED.matcher(dom);
        assertTrue(m.find(), "Chromium's DOM has no measurements: the script did not run; see " + work);
        List<String[]> rows = new ArrayList<>();
        for (String line : unescape(m.group(1)).split("\n")) {
            rows.add(line.split("\t", -1));
        }
        BufferedImage screenshot = ImageIO.read(plain.toFile());
        BufferedImage measured = ImageIO.read(measuredPng.toFile());
        assertEquals(WIDTH, screenshot.getWidth(), "screenshot width");
        assertEquals(HEIGHT, screenshot.getHeight(), "screenshot height");
        assertTrue(samePixels(screenshot, measured), "the measuring script changed the rendering: compare "
                + plain + " and " + measuredPng);
        return new Rendering(rows, screenshot);
    }

    /** Runs Chromium on {@code page}, writing a screenshot to {@code png}; returns the DOM it dumps. */
    private static String run(Path chromium, Path work, String name, Path page, Path png)
            throws IOException, InterruptedException {
        Path profile = Files.createDirectory(work.resolve("profile-" + name));
        Path dom = work.resolve(name + ".dom.html");
        Path log = work.resolve(name + ".log");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=" + WIDTH + "," + HEIGHT, "--screenshot=" + png, "--dump-dom",
                page.toUri().toString())
                .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("Chromium took over " + TIMEOUT_SECONDS + " s on " + page + "; its log: " + Files.readString(log));
        }
        assertTrue(Files.exists(png), "Chromium wrote no screenshot (exit status " + p.exitValue() + "); its log: "
                + Files.readString(log));
        return Files.readString(dom);
    }

    /**
     * What the check found.
     *
     * @param problems one line per problem, each naming its chart; empty when the page shows everything
     * @param measured one line per chart and series with the pixel counts the checks compared with their bounds
     */
    record Findings(List<String> problems, List<String> measured) {
    }

    /**
     * Compares a rendering with the charts the page should have.
     *
     * @param r the rendering
     * @param expected the charts, in page order
     * @return the problems, and what was measured
     */
    static Findings check(Rendering r, List<Chart> expected) {
        List<String> problems = new ArrayList<>();
        List<String> measured = new ArrayList<>();
        int[] window = ints(only(r.rows(), "window"), 1);
        int[] page = ints(only(r.rows(), "page"), 1);
        if (page[1] > window[1] || page[0] > window[0]) {
            problems.add("the page (" + page[0] + "x" + page[1] + ") does not fit the " + window[0] + "x" + window[1]
                    + " window: enlarge the check's window");
        }
        List<String[]> svgs = of(r.rows(), "svg", -1);
        if (svgs.size() != expected.size()) {
            problems.add(svgs.size() + " charts, expected " + expected.size() + " (" + expected.stream()
                    .map(Chart::title).toList() + ")");
        }
        for (int i = 0; i < Math.min(svgs.size(), expected.size()); i++) {
            chart(r, i, svgs.get(i), expected.get(i), problems, measured);
        }
        return new Findings(problems, measured);
    }

    private static void chart(Rendering r, int index, String[] svg, Chart expected, List<String> problems,
            List<String> measured) {
        String title = svg[6];
        String at = "\"" + expected.title() + "\": ";
        if (!title.equals(expected.title())) {
            problems.add(at + "chart " + (index + 1) + " is titled \"" + title + "\"");
            return;
        }
        BufferedImage img = r.screenshot();

        // the axes: a horizontal and a vertical line, shown, long, and inked along their length
        double[] xAxis = null;
        double[] yAxis = null;
        for (String[] a : of(r.rows(), "axis", index)) {
            double[] box = box(a);
            if (!a[7].equals("shown") || Double.parseDouble(a[8]) < 100) {
                problems.add(at + "an axis is not drawn (" + a[7] + ", length " + a[8] + ")");
            } else if (box[2] > box[3]) {
                xAxis = box;
            } else {
                yAxis = box;
            }
        }
        if (xAxis == null || yAxis == null) {
            problems.add(at + "it has no " + (xAxis == null ? "x" : "y") + " axis");
            return;
        }
        double xInk = axisInk(img, xAxis, true);
        double yInk = axisInk(img, yAxis, false);
        if (xInk < MIN_AXIS_INK || yInk < MIN_AXIS_INK) {
            problems.add(String.format(Locale.ROOT, "%sthe axes are not drawn along their length in the screenshot "
                    + "(x %.0f %%, y %.0f %% of their pixels inked, %.0f %% expected)", at, 100 * xInk, 100 * yInk,
                    100 * MIN_AXIS_INK));
        }
        int xTicks = 0;
        int yTicks = 0;
        for (String[] t : of(r.rows(), "tick", index)) {
            double[] box = box(t);
            if (t[6].equals("shown") && box[1] > xAxis[1]) {
                xTicks++;
            } else if (t[6].equals("shown") && box[0] + box[2] < yAxis[0]) {
                yTicks++;
            }
        }
        measured.add(String.format(Locale.ROOT, "%saxes inked x %.0f %%, y %.0f %%; %d x and %d y tick labels", at,
                100 * xInk, 100 * yInk, xTicks, yTicks));
        if (xTicks < 2 || yTicks < 2) {
            problems.add(at + "the axes have " + xTicks + " x and " + yTicks + " y tick labels, at least 2 each "
                    + "expected");
        }
        // the plot area, with room for the widest line's half-width and markers
        double[] plot = {yAxis[0] - 6, yAxis[1] - 6, xAxis[0] + xAxis[2] - yAxis[0] + 12, yAxis[3] + 12};

        // the legend: every series named, in order, with a swatch in its colour, shown
        Map<String, int[]> colours = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (String[] l : of(r.rows(), "legend", index)) {
            String name = l[12];
            names.add(name);
            int[] colour = rgb(l[11]);
            if (colour == null) {
                problems.add(at + "the legend entry '" + name + "' has no colour swatch");
                continue;
            }
            colours.put(name, colour);
            double[] swatch = {Double.parseDouble(l[7]) - 3, Double.parseDouble(l[8]) - 3,
                Double.parseDouble(l[9]) + 6, Double.parseDouble(l[10]) + 6};
            int swatchPixels = near(img, swatch, colour);
            int textPixels = dark(img, box(l));
            measured.add(at + "legend '" + name + "': " + swatchPixels + " swatch pixels of " + css(colour) + ", "
                    + textPixels + " dark text pixels");
            if (!l[6].equals("shown") || swatchPixels < MIN_SWATCH_PIXELS || textPixels < MIN_TEXT_PIXELS) {
                problems.add(at + "the legend entry '" + name + "' is not visible (" + l[6] + ", " + swatchPixels
                        + " swatch pixels, " + textPixels + " text pixels)");
            }
        }
        if (!names.equals(expected.series())) {
            List<String> missing = new ArrayList<>(expected.series());
            missing.removeAll(names);
            List<String> extra = new ArrayList<>(names);
            extra.removeAll(expected.series());
            problems.add(at + "the legend names " + names + ", expected " + expected.series()
                    + (missing.isEmpty() ? "" : "; missing " + missing) + (extra.isEmpty() ? "" : "; unexpected "
                    + extra));
        }
        List<String> named = new ArrayList<>(colours.keySet());
        for (int a = 0; a < named.size(); a++) {
            for (int b = a + 1; b < named.size(); b++) {
                if (Arrays.equals(colours.get(named.get(a)), colours.get(named.get(b)))) {
                    problems.add(at + "'" + named.get(a) + "' and '" + named.get(b) + "' share the colour "
                            + css(colours.get(named.get(a))) + ": one cannot be told from the other");
                }
            }
        }

        // the series: every expected one drawn in its legend's colour, and visible
        List<String[]> lines = of(r.rows(), "line", index);
        List<String[]> bars = of(r.rows(), "bar", index);
        if (expected.points() > 0 && lines.size() != expected.series().size()) {
            problems.add(at + lines.size() + " lines drawn, expected " + expected.series().size() + " "
                    + expected.series());
        }
        for (String name : expected.series()) {
            int[] colour = colours.get(name);
            if (colour == null) {
                problems.add(at + "'" + name + "' has no legend entry, so its line cannot be identified");
                continue;
            }
            if (expected.points() > 0) {
                List<String[]> own = lines.stream().filter(l -> Arrays.equals(rgb(l[6]), colour)).toList();
                if (own.size() != 1) {
                    problems.add(at + "'" + name + "' has " + own.size() + " lines in its colour " + css(colour)
                            + ", expected 1");
                } else {
                    String[] l = own.get(0);
                    int points = Integer.parseInt(l[10]);
                    int distinct = Integer.parseInt(l[11]);
                    if (!l[8].equals("shown") || Double.parseDouble(l[9]) <= 0 || points != expected.points()
                            || distinct < Math.min(2, expected.points())) {
                        problems.add(at + "'" + name + "' is not drawn as a line of " + expected.points()
                                + " points (" + l[8] + ", length " + l[9] + ", " + points + " points, " + distinct
                                + " distinct)");
                    }
                }
            } else {
                long own = bars.stream().filter(b -> Arrays.equals(rgb(b[6]), colour) && b[7].equals("shown")
                        && Double.parseDouble(b[5]) > 0).count();
                if (own == 0) {
                    problems.add(at + "'" + name + "' has no bar in its colour " + css(colour));
                }
            }
            int pixels = near(img, plot, colour);
            measured.add(at + "'" + name + "': " + pixels + " pixels of " + css(colour) + " in the plot area");
            if (pixels < MIN_LINE_PIXELS) {
                problems.add(at + "'" + name + "' is not visible in the screenshot: " + pixels + " pixels of its "
                        + "colour " + css(colour) + " in the plot area, at least " + MIN_LINE_PIXELS + " expected "
                        + "(not drawn, or hidden under another series)");
            }
        }
    }

    /** The fraction of the axis's pixels (of the two rows or columns it straddles, the better) that are inked. */
    private static double axisInk(BufferedImage img, double[] axis, boolean horizontal) {
        int from = (int) Math.round(horizontal ? axis[0] : axis[1]);
        int to = (int) Math.round(horizontal ? axis[0] + axis[2] : axis[1] + axis[3]);
        int at = (int) Math.round(horizontal ? axis[1] : axis[0]);
        double best = 0;
        for (int across = at - 1; across <= at; across++) {
            int inked = 0;
            for (int along = from; along < to; along++) {
                int rgb = horizontal ? pixel(img, along, across) : pixel(img, across, along);
                if (inked(rgb)) {
                    inked++;
                }
            }
            best = Math.max(best, (double) inked / Math.max(1, to - from));
        }
        return best;
    }

    /** Dark (an axis in black or grey) or saturated (a series drawn over the axis). */
    private static boolean inked(int rgb) {
        int r = rgb >> 16 & 0xff;
        int g = rgb >> 8 & 0xff;
        int b = rgb & 0xff;
        int max = Math.max(r, Math.max(g, b));
        int min = Math.min(r, Math.min(g, b));
        return max < 215 || max - min > 60;
    }

    private static int near(BufferedImage img, double[] box, int[] colour) {
        int n = 0;
        for (int y = (int) Math.floor(box[1]); y <= (int) Math.ceil(box[1] + box[3]); y++) {
            for (int x = (int) Math.floor(box[0]); x <= (int) Math.ceil(box[0] + box[2]); x++) {
                int rgb = pixel(img, x, y);
                int dr = (rgb >> 16 & 0xff) - colour[0];
                int dg = (rgb >> 8 & 0xff) - colour[1];
                int db = (rgb & 0xff) - colour[2];
                if (dr * dr + dg * dg + db * db < TOLERANCE * TOLERANCE) {
                    n++;
                }
            }
        }
        return n;
    }

    private static int dark(BufferedImage img, double[] box) {
        int n = 0;
        for (int y = (int) Math.floor(box[1]); y <= (int) Math.ceil(box[1] + box[3]); y++) {
            for (int x = (int) Math.floor(box[0]); x <= (int) Math.ceil(box[0] + box[2]); x++) {
                int rgb = pixel(img, x, y);
                if (Math.max(rgb >> 16 & 0xff, Math.max(rgb >> 8 & 0xff, rgb & 0xff)) < 128) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The pixel at (x, y), white outside the screenshot. */
    private static int pixel(BufferedImage img, int x, int y) {
        return x < 0 || y < 0 || x >= img.getWidth() || y >= img.getHeight() ? 0xffffff : img.getRGB(x, y);
    }

    private static boolean samePixels(BufferedImage a, BufferedImage b) {
        if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) {
            return false;
        }
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                if (a.getRGB(x, y) != b.getRGB(x, y)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The rows of one kind (and chart, unless {@code chart} is negative). */
    private static List<String[]> of(List<String[]> rows, String kind, int chart) {
        return rows.stream().filter(r -> r[0].equals(kind) && (chart < 0 || Integer.parseInt(r[1]) == chart))
                .toList();
    }

    private static String[] only(List<String[]> rows, String kind) {
        List<String[]> found = of(rows, kind, -1);
        assertEquals(1, found.size(), "measurement rows '" + kind + "'");
        return found.get(0);
    }

    private static int[] ints(String[] row, int from) {
        return Arrays.stream(row, from, row.length).mapToInt(Integer::parseInt).toArray();
    }

    /** Fields 2..5 of a row: left, top, width, height in page pixels. */
    private static double[] box(String[] row) {
        return new double[] {Double.parseDouble(row[2]), Double.parseDouble(row[3]), Double.parseDouble(row[4]),
            Double.parseDouble(row[5])};
    }

    /** {@code rgb(r, g, b)} as Chromium computes a colour, or null for anything else ({@code none}). */
    private static int[] rgb(String css) {
        Matcher m = Pattern.compile("rgb\\((\\d+), (\\d+), (\\d+)\\)").matcher(css);
        return m.matches() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))} : null;
    }

    private static String css(int[] c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", c[0], c[1], c[2]);
    }

    private static String unescape(String text) {
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&nbsp;", "\u00a0")
                .replace("&amp;", "&");
    }
}
