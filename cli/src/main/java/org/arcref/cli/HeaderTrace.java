package org.arcref.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.BlockTraceConversion;
import org.arcref.conformance.ConformanceFormat;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.trace.Excerpt;
import org.arcref.trace.TraceFormat;

/**
 * The trace a conformance output's header names, found for {@code arc verify ACTUAL} (which re-runs the spec on it)
 * under the rules for an output that is untrusted input, such as a port's output uploaded to CI. The header is
 * written by whoever made the output, so a path in it is never followed beyond the output's own folder, and nothing
 * of a file it may not name is read.
 *
 * <p>The contract, in the order the cases are decided:
 * <ol>
 *   <li>A trace given on the command line ({@code --trace FILE}) is read, as an op trace or, when the header names
 *       a {@code lirs:} or {@code lis:} trace, as a block trace of that format; the header's {@code trace} is then
 *       not looked at as a path.</li>
 *   <li>Otherwise a header's {@code builtin:NAME} is a resource of {@code arc} itself, never a file.</li>
 *   <li>{@code <stdin>} (a trace read from standard input by {@code arc conform}) cannot be read again: an error
 *       asks for {@code --trace}.</li>
 *   <li>Any other name is a path (after a {@code lirs:} or {@code lis:} prefix), resolved from the folder of the
 *       output file, never from the working folder, and it must stay inside that folder: relative or absolute, the
 *       path with {@code ..} removed must lie in the folder's real path, and so must its real path with every
 *       symbolic link resolved ({@link Path#toRealPath}). A path that does not is refused before the file is
 *       opened. An output read from standard input has no folder, so its header's path needs {@code --trace}.</li>
 * </ol>
 * The trace found must have the header's {@code trace_sha256}. Every failure is an {@link IllegalArgumentException}
 * with a one-line message naming the header's value (escaped, at most {@value Excerpt#MAX_CHARS} characters), the
 * rule and what to do, for the caller to place at the output's line 1; a trace file that was read and is malformed
 * is a {@link org.arcref.trace.TraceFormatException} naming its real path and line, whose message quotes at most
 * an {@link Excerpt} of the bad field.
 *
 * <p>Not promised: the check and the read are two steps, so a folder whose contents change between them (a link
 * swapped in) is not defended against; the CI job this serves unpacks an upload and then verifies it.
 */
final class HeaderTrace {

    /** The name {@link InputFile#name} gives standard input, which {@code arc conform} writes into the header. */
    private static final String STDIN = "<stdin>";

    private HeaderTrace() {
    }

    /**
     * @param header the output's parsed header
     * @param output the output file, or {@code -} when it was read from standard input
     * @param given the trace given with {@code --trace}, or {@code null}
     * @param stdin standard input, for {@code --trace -}
     * @return the trace, with the header's checksum, named as the header names it (a given trace: by its path)
     * @throws IllegalArgumentException naming the header's value or the option, the rule and what to do
     * @throws org.arcref.trace.TraceFormatException naming the trace file and line of a malformed line
     * @throws java.io.UncheckedIOException naming the trace file if it cannot be read
     */
    static ConformanceTrace find(Map<String, Object> header, Path output, Path given, InputStream stdin) {
        String name = ConformanceFormat.traceName(header);
        String sum = ConformanceFormat.traceSha256(header);
        Optional<TraceFormat> block = BlockTraceConversion.formatOf(name);
        if (given != null) {
            ConformanceTrace trace = read(given, block, stdin);
            if (!trace.sha256().equals(sum)) {
                throw new IllegalArgumentException("--trace " + Excerpt.of(InputFile.name(given)) + " is not the "
                        + "trace the output was made from: its sha256 is " + trace.sha256() + ", the header's "
                        + "trace_sha256 is " + Excerpt.of(sum));
            }
            return trace;
        }
        ConformanceTrace trace;
        if (name.startsWith(ConformanceTrace.BUILTIN)) {
            String builtin = name.substring(ConformanceTrace.BUILTIN.length());
            if (!ConformanceTrace.allBuiltinNames().contains(builtin)) {
                throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " must be a built-in "
                        + "trace of this arc (arc conform --list lists them), was not one");
            }
            trace = ConformanceTrace.builtin(builtin);
        } else {
            trace = read(inFolderOf(output, name, block.map(f -> name.substring(f.toString().length() + 1))
                    .orElse(name)), block, stdin).named(name);
        }
        if (!trace.sha256().equals(sum)) {
            throw new IllegalArgumentException("the trace " + Excerpt.of(name) + " changed since the output was "
                    + "written: its sha256 is " + trace.sha256() + ", the header's trace_sha256 is " + Excerpt.of(sum));
        }
        return trace;
    }

    /**
     * @return the real path of the file the header's {@code path} names inside the output's folder
     * @throws IllegalArgumentException if it names standard input, leaves the folder, or is not a file there
     */
    private static Path inFolderOf(Path output, String name, String path) {
        if (path.equals(STDIN)) {
            throw new IllegalArgumentException("the header's trace is " + Excerpt.of(name) + ": the output was made "
                    + "from a trace read on standard input, which cannot be read again; give that trace with --trace "
                    + "FILE");
        }
        if (InputFile.isDash(output)) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " is a path, which is looked "
                    + "up in the output's folder, and an output read from standard input has none; give the trace "
                    + "with --trace FILE");
        }
        Path folder;
        Path candidate;
        try {
            folder = output.toAbsolutePath().getParent().toRealPath();
            candidate = folder.resolve(path).normalize();
        } catch (IOException | InvalidPathException e) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " must be a path of a file "
                    + "in the output's folder, was not a path there");
        }
        String rule = " (a header's trace path is looked up in the output's folder only); give the trace with "
                + "--trace FILE";
        if (!candidate.startsWith(folder)) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " is outside the output's "
                    + "folder " + folder + ", so it was not read" + rule);
        }
        Path real;
        try {
            real = candidate.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " was not found in the "
                    + "output's folder " + folder + rule);
        }
        if (!real.startsWith(folder)) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " is a symbolic link to a "
                    + "file outside the output's folder " + folder + ", so it was not read" + rule);
        }
        if (!Files.isRegularFile(real)) {
            throw new IllegalArgumentException("the header's trace " + Excerpt.of(name) + " must be a file in the "
                    + "output's folder " + folder + ", was not a regular file");
        }
        return real;
    }

    private static ConformanceTrace read(Path file, Optional<TraceFormat> block, InputStream stdin) {
        InputFile.Reader<ConformanceTrace> reader = block.isPresent()
                ? (in, source) -> BlockTraceConversion.read(in, source, block.get()) : ConformanceTrace::read;
        return InputFile.read(file, "trace file", stdin, reader);
    }
}
