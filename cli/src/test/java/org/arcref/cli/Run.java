package org.arcref.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One in-process run of the {@code arc} command, for end-to-end tests.
 *
 * @param status the exit status
 * @param out what it wrote to standard output
 * @param err what it wrote to standard error
 */
record Run(int status, String out, String err) {

    /** @param args the command line @return the run's status and output */
    static Run arc(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ArcCommand.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(status, out.toString(), err.toString());
    }
}
