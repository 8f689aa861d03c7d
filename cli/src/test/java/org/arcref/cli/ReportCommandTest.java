package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code arc report} end to end: a well-formed, self-contained page with the three charts; renders in Chromium. */
class ReportCommandTest {

    private static final String SVG = "http://www.w3.org/2000/svg";

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

    @Test
    void theReportIsWellFormedXhtmlWithThreeChartsAndNothingExternal() throws Exception {
        Path out = report("--concurrent", "2");
        String html = Files.readString(out);
        assertFalse(html.contains("<script"), "no scripts");
        assertFalse(html.replace("xmlns=\"http://www.w3.org/", "").contains("http"), "no external references");
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        Document doc = f.newDocumentBuilder().parse(out.toFile());
        NodeList svgs = doc.getElementsByTagNameNS(SVG, "svg");
        assertEquals(3, svgs.getLength(), "timeline, hit ratios and eviction waits");

        Element timeline = (Element) svgs.item(0);
        NodeList lines = timeline.getElementsByTagNameNS(SVG, "polyline");
        assertEquals(7, lines.getLength(), "arc_c, arc_p and the five states");
        String points = ((Element) lines.item(0)).getAttribute("points");
        assertEquals(50, points.split(" ").length, "one point per sample");
        assertTrue(legends(timeline).containsAll(List.of("arc_c", "arc_p", "mru", "mfu", "mru_ghost", "mfu_ghost")),
                legends(timeline).toString());

        Element hits = (Element) svgs.item(1);
        assertEquals(List.of("zfs", "canonical", "lru"), legends(hits));
        NodeList hitLines = hits.getElementsByTagNameNS(SVG, "polyline");
        for (int i = 0; i < hitLines.getLength(); i++) {
            assertEquals(3, ((Element) hitLines.item(i)).getAttribute("points").split(" ").length, "three sizes");
        }

        Element waits = (Element) svgs.item(2);
        assertTrue(waits.getElementsByTagNameNS(SVG, "rect").getLength() > 2, "wait-time bars and the legend");
        assertTrue(html.contains("eviction waits, p50"), "the wait summary");
    }

    @Test
    void withoutConcurrentThereAreTwoCharts() throws Exception {
        Path out = report();
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        assertEquals(2, f.newDocumentBuilder().parse(out.toFile()).getElementsByTagNameNS(SVG, "svg").getLength());
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

    /** Runs only where Chromium is installed ({@code apt-get install -y chromium}); see docs/report.md. */
    @Test
    void rendersInHeadlessChromium() throws Exception {
        Path chromium = Path.of("/usr/bin/chromium");
        assumeTrue(Files.isExecutable(chromium), "Chromium is not installed");
        Path out = report();
        Path png = dir.resolve("report.png");
        Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--hide-scrollbars", "--window-size=900,1100", "--screenshot=" + png, out.toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "Chromium took over 60 s");
        assertTrue(Files.exists(png), Files.readString(dir.resolve("chromium.log")));
        var image = ImageIO.read(png.toFile());
        assertEquals(900, image.getWidth());
        long coloured = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y);
                int r = rgb >> 16 & 0xff;
                int g = rgb >> 8 & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    coloured++;
                }
            }
        }
        assertTrue(coloured > 500, "the charts' coloured lines are drawn: " + coloured + " coloured pixels");
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
