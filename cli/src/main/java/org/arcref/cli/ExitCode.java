package org.arcref.cli;

/**
 * The exit statuses of {@code arc}, one scheme for every subcommand, so that a CI pipeline can tell a finding from a
 * mistake without reading the output:
 *
 * <table>
 *   <caption>Exit statuses</caption>
 *   <tr><th>status</th><th>meaning</th></tr>
 *   <tr><td>0</td><td>success: the work ran to its end and found nothing</td></tr>
 *   <tr><td>1</td><td>a finding: a divergence (verify), a failed check (explore), a violation (soak)</td></tr>
 *   <tr><td>2</td><td>bad usage or bad input: an unknown option, a malformed value, a bad trace line, a
 *       missing file, an input too large for this JVM, an empty trace; nothing was checked; or a bad output target:
 *       standard output or an output file that cannot be written (a full disk, a closed pipe), which ends the
 *       command at once</td></tr>
 *   <tr><td>3</td><td>an internal error of {@code arc} itself (a bug; the stack trace follows the message)</td></tr>
 *   <tr><td>130</td><td>interrupted (Ctrl-C) before the work ended, without a finding; the summary of what ran
 *       is printed</td></tr>
 * </table>
 */
final class ExitCode {

    /** The work ran to its end and found nothing. */
    static final int SUCCESS = 0;
    /** A divergence, a failed check or a violation. */
    static final int FINDING = 1;
    /** Bad usage or bad input (nothing was checked), or an output that cannot be written. */
    static final int BAD_INPUT = 2;
    /** A bug in {@code arc}. */
    static final int INTERNAL_ERROR = 3;
    /** Stopped by Ctrl-C without a finding (128 + SIGINT, as shells report it). */
    static final int INTERRUPTED = 130;

    /** The table for {@code arc --help}, a picocli footer line ({@code %n} ends each line). */
    static final String TABLE = "Exit status (every subcommand):%n"
            + "  0    success: ran to the end, nothing found%n"
            + "  1    a finding: divergence (verify), failed check (explore), violation (soak)%n"
            + "  2    bad usage, bad input or an unwritable output (nothing checked)%n"
            + "  3    internal error of arc (a bug)%n"
            + "  130  interrupted (Ctrl-C) without a finding";

    private ExitCode() {
    }
}
