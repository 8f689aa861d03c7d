package org.arcref.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A self-contained report page: well-formed XHTML (so it parses as XML), inline SVG charts, an inline style sheet,
 * no scripts and no references to anything outside the file, so that it renders offline.
 */
public final class HtmlReport {

    private final String title;
    private final List<String> body = new ArrayList<>();

    /** @param title the page's title and heading */
    public HtmlReport(String title) {
        this.title = title;
    }

    /**
     * Adds a section.
     *
     * @param heading the section's heading
     * @param text a paragraph of plain text under it
     * @param svg an {@code <svg>} element from {@link SvgChart}, or empty
     * @return this report
     */
    public HtmlReport section(String heading, String text, String svg) {
        body.add("<section>\n<h2>" + SvgChart.escape(heading) + "</h2>\n<p>" + SvgChart.escape(text) + "</p>\n"
                + svg + "</section>\n");
        return this;
    }

    /** @return the page */
    public String render() {
        return "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                + "<meta charset=\"utf-8\"/>\n<title>" + SvgChart.escape(title) + "</title>\n"
                + "<style>body{font-family:sans-serif;max-width:800px;margin:2em auto;color:#222}"
                + "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.5em}p{font-size:.9em}"
                + "svg{border:1px solid #eee;background:#fff}</style>\n</head>\n<body>\n<h1>"
                + SvgChart.escape(title) + "</h1>\n" + String.join("", body) + "</body>\n</html>\n";
    }
}
