package org.arcref.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One run of the {@code arc} command in a test: exit status, standard output and standard error.
 *
 * @param status the exit status
 * @param out standard output
 * @param err standard error
 */
record CliRun(int status, String out, String err) {

    /** Runs {@code arc args} as {@code main} would. */
    static CliRun arc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ArcCommand.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(status, out.toString(), err.toString());
    }

    /** Runs one subcommand object directly (to inject a seam), with {@code arc}'s error handling of bad input. */
    static CliRun command(Object subcommand, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(subcommand);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args);
        return new CliRun(status, out.toString(), err.toString());
    }
}
