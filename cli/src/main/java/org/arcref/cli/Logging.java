package org.arcref.cli;

import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the project's classes log ({@code System.Logger}, which is {@code java.util.logging} here), as {@code arc}
 * shows it: one line per record on standard error, {@code arc: LEVEL: message}, warnings always and notices (INFO,
 * such as the zthr priority mode a concurrent command logs once) only with {@code --verbose}. Without this the JVM's
 * default handler printed a two-line INFO record at every concurrent command.
 */
final class Logging {

    /** The parent of every logger of the project; held here because {@code java.util.logging} holds loggers weakly. */
    private static final Logger PROJECT = Logger.getLogger("org.arcref");

    private Logging() {
    }

    /**
     * Sends the project's records to standard error, one line each.
     *
     * @param verbose whether notices (INFO) are shown, not only warnings
     */
    static synchronized void configure(boolean verbose) {
        for (Handler h : PROJECT.getHandlers()) {
            PROJECT.removeHandler(h);
        }
        Handler handler = new ConsoleHandler();
        handler.setLevel(Level.ALL);
        handler.setFormatter(new OneLine());
        PROJECT.addHandler(handler);
        PROJECT.setUseParentHandlers(false);
        PROJECT.setLevel(verbose ? Level.INFO : Level.WARNING);
    }

    /** {@code arc: LEVEL: message[: exception]} on one line. */
    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord r) {
            String thrown = r.getThrown() == null ? "" : ": " + r.getThrown();
            return "arc: " + r.getLevel().getName().toLowerCase(Locale.ROOT) + ": " + formatMessage(r) + thrown
                    + System.lineSeparator();
        }
    }
}
