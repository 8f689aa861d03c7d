package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code arc report} end to end: a well-formed, self-contained page with its five charts, and what headless Chromium
 * renders of it ({@link BrowserCheck}), with the planted pages that check must reject.
 */
class ReportCommandTest {

    private static final String SVG = "http://www.w3.org/2000/svg";

    /** The charts of {@link #report}'s page with {@code --concurrent}: every series its legend must name. */
    private static final List<BrowserCheck.Chart> CHARTS = List.of(
            new BrowserCheck.Chart("arc_c, arc_p and state sizes at 100 pages",
                    List.of("arc_c", "arc_p", "anon", "mru", "mru_ghost", "mfu", "mfu_ghost"), 50),
            new BrowserCheck.Chart("zfs-2.2.0: arc_c and state sizes at 100 pages",
                    List.of("arc_c", "anon", "mru", "mru_ghost", "mfu", "mfu_ghost"), 50),
            new BrowserCheck.Chart("zfs-2.2.0: arc_meta, arc_pd and arc_pm at 100 pages",
                    List.of("arc_meta", "arc_pd", "arc_pm"), 50),
            new BrowserCheck.Chart("Hit ratio against cache size", List.of("zfs", "zfs22", "canonical", "lru"), 3),
            new BrowserCheck.Chart("Eviction wait times", List.of("waits per bucket"), 0));

    @TempDir
    Path dir;

    private Path report(String... extra) {
        Path out = dir.resolve("report.html");
        List<String> args = new ArrayList<>(List.of("report", "--length", "20000", "--sizes", "50,100,400",
                "--size", "100", "--points", "50", "--out", out.toString()));
        args.addAll(List.of(extra));
        CliRun r = CliRun.arc(args.toArray(String[]::new));
        assertEquals(0, r.status(), r.err());
        assertEquals("arc report: wrote " + out, r.out().strip());
        return out;
    }

    /** The hit-ratio chart's place among the page's charts, from 0. */
    private static final int HIT_RATIOS = 3;

    @Test
    void theReportIsWellFormedXhtmlWithFiveChartsAndNothingExternal() throws Exception {
        Path out = report("--concurrent", "2");
        String html = Files.readString(out);
        assertFalse(html.contains("<script"), "no scripts");
        assertFalse(html.replace("xmlns=\"http://www.w3.org/", "").contains("http"), "no external references");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(out.toFile());
        NodeList svgs = doc.getElementsByTagNameNS(SVG, "svg");
        assertEquals(5, svgs.getLength(), "two engines' timelines (the second in two charts), hit ratios, eviction "
                + "waits");

        Element timeline = (Element) svgs.item(0);
        NodeList lines = timeline.getElementsByTagNameNS(SVG, "polyline");
        assertEquals(7, lines.getLength(), "arc_c, arc_p and the five states");
        String points = ((Element) lines.item(0)).getAttribute("points");
        assertEquals(50, points.split(" ").length, "one point per sample");
        assertTrue(legends(timeline).containsAll(List.of("arc_c", "arc_p", "mru", "mfu", "mru_ghost", "mfu_ghost")),
                legends(timeline).toString());

        Element sizes22 = (Element) svgs.item(1);
        assertEquals(List.of("arc_c", "anon", "mru", "mru_ghost", "mfu", "mfu_ghost"), legends(sizes22));
        Element fractions = (Element) svgs.item(2);
        assertEquals(List.of("arc_meta", "arc_pd", "arc_pm"), legends(fractions));
        NodeList fractionLines = fractions.getElementsByTagNameNS(SVG, "polyline");
        assertEquals(3, fractionLines.getLength());
        assertEquals(50, ((Element) fractionLines.item(2)).getAttribute("points").split(" ").length);
        assertTrue(html.contains("zfs-2.2.0 does not clamp: they may leave [0, 1]"), "the fractions' caption");

        Element hits = (Element) svgs.item(HIT_RATIOS);
        assertEquals(List.of("zfs", "zfs22", "canonical", "lru"), legends(hits));
        NodeList hitLines = hits.getElementsByTagNameNS(SVG, "polyline");
        for (int i = 0; i < hitLines.getLength(); i++) {
            assertEquals(3, ((Element) hitLines.item(i)).getAttribute("points").split(" ").length, "three sizes");
        }

        Element waits = (Element) svgs.item(4);
        assertTrue(waits.getElementsByTagNameNS(SVG, "rect").getLength() > 2, "wait-time bars and the legend");
        assertTrue(html.contains("eviction waits, p50"), "the wait summary");
    }

    @Test
    void withoutConcurrentThereAreFourCharts() throws Exception {
        Path out = report();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        assertEquals(4, f.newDocumentBuilder().parse(out.toFile()).getElementsByTagNameNS(SVG, "svg").getLength());
        CliRun bad = CliRun.arc("report", "--sizes", "1", "--out", dir.resolve("x.html").toString());
        assertEquals(ExitCode.BAD_INPUT, bad.status());
        assertEquals("arc: --sizes must all be >= 2, was 1", bad.err().strip());
    }

    @Test
    void badInputFailsBeforeTheReplayWithOneLine() throws Exception {
        Path missing = dir.resolve("no-such-folder");
        CliRun r = CliRun.arc("report", "--out", missing.resolve("x.html").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --out: the folder must exist, was " + missing, r.err().strip(), "no replay began");

        Path file = Files.writeString(dir.resolve("a-file"), "");
        r = CliRun.arc("report", "--out", file.resolve("x.html").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --out: the folder must be a directory, was " + file, r.err().strip());

        r = CliRun.arc("report", "--length", "0", "--out", dir.resolve("x.html").toString());
        assertEquals(ExitCode.BAD_INPUT, r.status());
        assertEquals("arc: --length must be in [1, 2147483639], was 0", r.err().strip());
        assertFalse(Files.exists(dir.resolve("x.html")));
    }

    /**
     * Renders the page in headless Chromium and checks what a person would: every chart has both axes, its legend
     * names every series, and every series is drawn and visible in the screenshot. Fails where Chromium is missing,
     * naming the command that installs it; skipped only with {@code -Dreport.chromium.skip=true} (docs/report.md).
     */
    @Test
    void rendersInHeadlessChromiumWithEverySeriesVisible() throws Exception {
        Path chromium = BrowserCheck.chromium();
        Path out = report("--concurrent", "2");
        BrowserCheck.Findings found = BrowserCheck.check(BrowserCheck.render(chromium, out,
                Files.createDirectory(dir.resolve("chromium"))), CHARTS);
        found.measured().forEach(line -> System.out.println("browser check: " + line));
        assertEquals(List.of(), found.problems(), "what Chromium rendered of " + out);
    }

    /**
     * The browser check fails on a page whose hit-ratio chart lacks a series: once without its line, markers and
     * legend entry, once without its line and markers only (the legend still naming it).
     */
    @Test
    void theBrowserCheckCatchesAMissingSeries() throws Exception {
        Path chromium = BrowserCheck.chromium();
        String html = Files.readString(report("--concurrent", "2"));
        String at = "\"Hit ratio against cache size\": ";

        Path gone = Files.writeString(dir.resolve("missing-series.html"),
                withoutSeries(html, HIT_RATIOS, "canonical", true));
        assertEquals(List.of(at + "the legend names [zfs, zfs22, lru], expected [zfs, zfs22, canonical, lru]; "
                + "missing [canonical]", at + "3 lines drawn, expected 4 [zfs, zfs22, canonical, lru]",
                at + "'canonical' has no legend entry, so its line cannot be identified"),
                BrowserCheck.check(BrowserCheck.render(chromium, gone, Files.createDirectory(dir.resolve("gone"))),
                        CHARTS).problems());

        Path lineless = Files.writeString(dir.resolve("missing-line.html"),
                withoutSeries(html, HIT_RATIOS, "canonical", false));
        assertEquals(List.of(at + "3 lines drawn, expected 4 [zfs, zfs22, canonical, lru]",
                at + "'canonical' has 0 lines in its colour #2ca02c, expected 1",
                at + "'canonical' is not visible in the screenshot: 0 pixels of its colour #2ca02c in the plot area, "
                        + "at least 20 expected (not drawn, or hidden under another series)"),
                BrowserCheck.check(BrowserCheck.render(chromium, lineless,
                        Files.createDirectory(dir.resolve("lineless"))), CHARTS).problems());
    }

    /**
     * The browser check fails on a page where a series lies exactly under another that is drawn over it, wider: the
     * hit-ratio chart with canonical given zfs's points and zfs drawn after it.
     */
    @Test
    void theBrowserCheckCatchesASeriesHiddenUnderAnother() throws Exception {
        Path chromium = BrowserCheck.chromium();
        String html = Files.readString(report("--concurrent", "2"));
        Path broken = Files.writeString(dir.resolve("hidden-series.html"), hiddenUnder(html, HIT_RATIOS, "#2ca02c",
                "#1f77b4"));
        List<String> problems = BrowserCheck.check(BrowserCheck.render(chromium, broken,
                Files.createDirectory(dir.resolve("chromium"))), CHARTS).problems();
        assertEquals(List.of("\"Hit ratio against cache size\": 'canonical' is not visible in the screenshot: 0 pixels "
                + "of its colour #2ca02c in the plot area, at least 20 expected (not drawn, or hidden under another "
                + "series)"), problems);
    }

    /** Without Chromium the browser check fails, naming the command that installs it; it skips only on purpose. */
    @Test
    void aMissingChromiumFailsNamingTheInstallCommand() {
        String missing = dir.resolve("no-chromium").toString();
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> BrowserCheck.chromium(missing, false));
        assertEquals("Chromium is not installed at " + missing + ": install it with 'apt-get install -y chromium' "
                + "(Debian's package; .ci/run installs it), point -Dreport.chromium=PATH at another, or skip the "
                + "browser check on purpose with -Dreport.chromium.skip=true", e.getMessage());
        TestAbortedException skipped = assertThrows(TestAbortedException.class,
                () -> BrowserCheck.chromium(missing, true));
        assertEquals("Assumption failed: the browser check is skipped on purpose (-Dreport.chromium.skip=true)",
                skipped.getMessage());
    }

    /** The lines of chart {@code chart} (from its {@code <svg} to its {@code </svg>}), and the rest of the page. */
    private record Split(List<String> before, List<String> chart, List<String> after) {

        static Split of(String html, int chart) {
            List<String> lines = html.lines().toList();
            int seen = -1;
            int from = -1;
            int to = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("<svg ") && ++seen == chart) {
                    from = i;
                }
                if (from >= 0 && to < 0 && lines.get(i).equals("</svg>")) {
                    to = i + 1;
                }
            }
            assertTrue(from >= 0 && to > from, "chart " + chart + " in the page");
            return new Split(lines.subList(0, from), new ArrayList<>(lines.subList(from, to)),
                    lines.subList(to, lines.size()));
        }

        String join() {
            List<String> all = new ArrayList<>(before);
            all.addAll(chart);
            all.addAll(after);
            return String.join("\n", all) + "\n";
        }
    }

    /**
     * The page without series {@code name} of chart {@code chart}: its line and markers, and with {@code legend} its
     * legend entry too.
     */
    private static String withoutSeries(String html, int chart, String name, boolean legend) {
        Split s = Split.of(html, chart);
        String text = s.chart().stream().filter(l -> l.endsWith(">" + name + "</text>")).findFirst().orElseThrow();
        String swatch = s.chart().get(s.chart().indexOf(text) - 1);
        String colour = attribute(swatch, "stroke");
        int before = s.chart().size();
        s.chart().removeIf(l -> isSeries(l, colour) || legend && (l.equals(swatch) || l.equals(text)));
        assertTrue(before - s.chart().size() >= (legend ? 4 : 2), "a line, its markers (and a legend entry) removed");
        return s.join();
    }

    /**
     * The page with the series in colour {@code under} of chart {@code chart} given the points of the one in colour
     * {@code over}, which is then drawn after it.
     */
    private static String hiddenUnder(String html, int chart, String under, String over) {
        Split s = Split.of(html, chart);
        List<String> top = s.chart().stream().filter(l -> isSeries(l, over)).toList();
        List<String> bottom = s.chart().stream().filter(l -> isSeries(l, under)).toList();
        assertEquals(top.size(), bottom.size(), "a line and as many markers each");
        List<String> moved = new ArrayList<>();
        for (int i = 0; i < bottom.size(); i++) {
            String line = bottom.get(i);
            for (String a : List.of("points", "cx", "cy")) {
                if (line.contains(" " + a + "=\"")) {
                    line = line.replace(a + "=\"" + attribute(line, a) + "\"",
                            a + "=\"" + attribute(top.get(i), a) + "\"");
                }
            }
            moved.add(line);
        }
        List<String> reordered = new ArrayList<>();
        for (String line : s.chart()) {
            if (line.equals(bottom.get(0))) {
                reordered.addAll(moved);
                reordered.addAll(top);
            } else if (!top.contains(line) && !bottom.contains(line)) {
                reordered.add(line);
            }
        }
        s.chart().clear();
        s.chart().addAll(reordered);
        return s.join();
    }

    private static boolean isSeries(String line, String colour) {
        return line.startsWith("<polyline class=\"series\"") && line.contains("stroke=\"" + colour + "\"")
                || line.startsWith("<circle class=\"marker\"") && line.contains("fill=\"" + colour + "\"");
    }

    private static String attribute(String element, String name) {
        int from = element.indexOf(" " + name + "=\"") + name.length() + 3;
        return element.substring(from, element.indexOf('"', from));
    }

    private static List<String> legends(Element svg) {
        List<String> names = new ArrayList<>();
        NodeList texts = svg.getElementsByTagNameNS(SVG, "text");
        for (int i = 0; i < texts.getLength(); i++) {
            Element t = (Element) texts.item(i);
            if (t.getAttribute("class").equals("legend")) {
                names.add(t.getTextContent());
            }
        }
        return names;
    }
}
