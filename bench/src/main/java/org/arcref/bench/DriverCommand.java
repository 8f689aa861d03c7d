package org.arcref.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The command line of a bench driver ({@code main} of an experiment): too few or too many arguments print the
 * usage line and exit 2; a bad argument prints one line, {@code <argument>: <rule>, was <value>}, and exits 1; no
 * stack trace in either case. The parsers below check an argument before the driver does any work.
 *
 * @param usage the usage line, without {@code usage: }
 * @param minArgs the fewest arguments
 * @param maxArgs the most arguments
 * @param body the driver's work on its arguments
 */
public record DriverCommand(String usage, int minArgs, int maxArgs, Body body) {

    /** A driver's work on its arguments. */
    @FunctionalInterface
    public interface Body {
        /**
         * @param args the arguments, as many as the driver accepts
         * @throws IllegalArgumentException naming the argument, the rule and the value of a bad one
         * @throws Exception if the work fails otherwise
         */
        void run(String[] args) throws Exception;
    }

    /**
     * Runs the driver and exits with its status if it is not 0 (on success {@code main} returns normally).
     *
     * @param args the arguments
     * @throws Exception if the work fails other than by a bad argument
     */
    public void main(String[] args) throws Exception {
        int status = run(args, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Runs the driver, writing a usage or bad-argument line to {@code err}.
     *
     * @param args the arguments
     * @param err where the line goes
     * @return 0 when the work ran, 1 for a bad argument, 2 for too few or too many arguments
     * @throws Exception if the work fails other than by a bad argument
     */
    public int run(String[] args, PrintStream err) throws Exception {
        if (args.length < minArgs || args.length > maxArgs) {
            err.println("usage: " + usage);
            return 2;
        }
        try {
            body.run(args);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        }
    }

    /** @return the one-line error {@code <argument>: <rule>, was <value>} */
    public static IllegalArgumentException bad(String argument, String rule, Object value) {
        return new IllegalArgumentException(argument + ": " + rule + ", was " + value);
    }

    /**
     * @return {@code text} as an int
     * @throws IllegalArgumentException naming the argument if it is not an integer of at least {@code min}
     */
    public static int integer(String argument, String text, int min) {
        try {
            int value = Integer.parseInt(text);
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the rule
        }
        throw bad(argument, "must be an integer >= " + min, text);
    }

    /**
     * @param positive whether the number must be above 0 (else at least 0)
     * @return {@code text} as a number of seconds
     * @throws IllegalArgumentException naming the argument if it is not a finite number in range
     */
    public static double seconds(String argument, String text, boolean positive) {
        try {
            double value = Double.parseDouble(text);
            if (Double.isFinite(value) && (positive ? value > 0 : value >= 0)) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below with the rule
        }
        throw bad(argument, positive ? "must be a number of seconds > 0" : "must be a number of seconds >= 0", text);
    }

    /**
     * @return {@code text} as a path
     * @throws IllegalArgumentException naming the argument if it is not an existing directory
     */
    public static Path folder(String argument, String text) {
        Path dir = Path.of(text);
        if (!Files.isDirectory(dir)) {
            throw bad(argument, "must be an existing folder", text);
        }
        return dir;
    }

    /**
     * Writes a driver's output file (UTF-8, one line each), creating its folder first.
     *
     * @param out the file
     * @param lines its lines
     * @throws IOException if the folder or the file cannot be written
     */
    public static void writeLines(Path out, List<String> lines) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.write(out, lines);
    }
}
