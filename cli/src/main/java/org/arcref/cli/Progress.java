package org.arcref.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of long work on standard error: on a terminal ({@code System.console() != null}) a bar redrawn in place
 * at most 10 times a second; otherwise one plain line every {@value #PLAIN_INTERVAL_SECONDS} s.
 */
final class Progress {

    /** Seconds between plain progress lines. */
    static final long PLAIN_INTERVAL_SECONDS = 5;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private long lastPrint = start;
    private boolean drawn;

    /**
     * @param err standard error
     * @param label what is counted, e.g. {@code "arc explore"}
     * @param terminal whether to draw a bar ({@link #onTerminal()}) or print plain lines
     */
    Progress(PrintWriter err, String label, boolean terminal) {
        this.err = err;
        this.label = label;
        this.terminal = terminal;
    }

    /** @return whether standard output is a terminal */
    static boolean onTerminal() {
        return System.console() != null;
    }

    /**
     * Reports progress, printing only if enough time passed since the last print.
     *
     * @param fraction the fraction done, in [0, 1], or negative if unknown
     * @param status what to show after the bar, e.g. {@code "512/1000 tries"}
     */
    void update(double fraction, String status) {
        long now = System.nanoTime();
        long interval = terminal ? 100_000_000L : PLAIN_INTERVAL_SECONDS * 1_000_000_000L;
        if (now - lastPrint < interval) {
            return;
        }
        lastPrint = now;
        double seconds = (now - start) / 1e9;
        if (terminal) {
            int filled = fraction < 0 ? 0 : (int) Math.round(Math.min(1, fraction) * WIDTH);
            err.printf(Locale.ROOT, "\r%s [%s%s] %s, %.1f s ", label, "#".repeat(filled), ".".repeat(WIDTH - filled),
                    status, seconds);
            drawn = true;
        } else {
            err.printf(Locale.ROOT, "%s: %s, %.1f s%n", label, status, seconds);
        }
        err.flush();
    }

    /** Ends the bar's line, if one was drawn. */
    void finish() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}
