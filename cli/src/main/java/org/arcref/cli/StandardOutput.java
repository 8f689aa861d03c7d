package org.arcref.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@code arc}'s standard output, which fails loudly: a write that fails (a full disk, a closed pipe) ends the
 * command at once with an {@link UncheckedIOException} naming standard output, which {@code arc} reports as one
 * line and exit status {@link ExitCode#BAD_INPUT} (a bad output target), where a {@link PrintWriter} over
 * {@link System#out} only sets an error flag nobody reads.
 *
 * <p>How: it writes to the process's file descriptor 1 directly, not through {@link System#out} (a
 * {@link java.io.PrintStream}, which swallows the {@link IOException}), through a writer that turns the
 * {@link IOException} into an {@link UncheckedIOException}, which {@link PrintWriter} does not catch. The JVM
 * ignores SIGPIPE, so a closed pipe is such an exception too ("Broken pipe"). Only the first failure is thrown:
 * what the command writes while it stops is dropped.
 */
final class StandardOutput extends PrintWriter {

    private StandardOutput(OutputStream out) {
        super(new Failing(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))), true);
    }

    /** @return a writer to the process's standard output, flushed at every line end */
    static StandardOutput open() {
        return new StandardOutput(new FileOutputStream(FileDescriptor.out));
    }

    /**
     * @param out the bytes' destination
     * @return a writer to {@code out} that fails as standard output does (for tests)
     */
    static StandardOutput over(OutputStream out) {
        return new StandardOutput(out);
    }

    /**
     * Flushes what is buffered at the end of a command.
     *
     * @param err standard error, for the one line that reports a failure
     * @param status the command's exit status
     * @return {@code status}, or {@link ExitCode#BAD_INPUT} if the output failed now
     */
    int finish(PrintWriter err, int status) {
        try {
            flush();
            return status;
        } catch (UncheckedIOException e) {
            err.println("arc: " + e.getMessage());
            return ExitCode.BAD_INPUT;
        }
    }

    /** A writer whose first failure is an {@link UncheckedIOException}, and whose later writes do nothing. */
    private static final class Failing extends Writer {

        private final Writer out;
        private boolean failed;

        Failing(Writer out) {
            this.out = out;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            if (!failed) {
                try {
                    out.write(buf, off, len);
                } catch (IOException e) {
                    fail(e);
                }
            }
        }

        @Override
        public void flush() {
            if (!failed) {
                try {
                    out.flush();
                } catch (IOException e) {
                    fail(e);
                }
            }
        }

        @Override
        public void close() {
            flush();
        }

        private void fail(IOException e) {
            failed = true;
            throw new UncheckedIOException("cannot write to standard output (" + e.getMessage()
                    + "): what was written is incomplete", e);
        }
    }
}
