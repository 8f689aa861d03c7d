package org.arcref.cli;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
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

    /** Runs {@code arc args} as {@code main} would, with empty standard input. */
    static CliRun arc(String... args) {
        return arcWithStdin(new byte[0], args);
    }

    /** Runs {@code arc args} as {@code main} would, with {@code stdin} as standard input. */
    static CliRun arcWithStdin(byte[] stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        InputStream in = new ByteArrayInputStream(stdin);
        int status = ArcCommand.run(args, in, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(status, out.toString(), err.toString());
    }

    /** Runs one subcommand object directly (to inject a seam), with {@code arc}'s error handling. */
    static CliRun command(Object subcommand, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter errWriter = new PrintWriter(err, true);
        CommandLine cl = ArcCommand.configure(new CommandLine(subcommand), new PrintWriter(out, true), errWriter);
        int status = ArcCommand.execute(cl, args, errWriter);
        return new CliRun(status, out.toString(), err.toString());
    }
}
