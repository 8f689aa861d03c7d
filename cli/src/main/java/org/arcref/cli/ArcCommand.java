package org.arcref.cli;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.arcref.trace.Excerpt;
import org.arcref.trace.Spelling;
import org.arcref.trace.TraceFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code arc} command. With no subcommand it runs {@code arc replay} on its built-in workload. Every subcommand
 * exits with the statuses of {@link ExitCode}; an error prints one line, {@code arc: ...}, on standard error.
 */
@Command(name = "arc", mixinStandardHelpOptions = true, version = "arc 0.1.0 (ZFS 2.1.1 ARC reference)",
        description = {"A checked reference of the OpenZFS 2.1.1 Adaptive Replacement Cache.",
                "Without a subcommand, runs 'arc replay' on the built-in synthetic workload.",
                "Every file argument may be '-' for standard input; traces may be plain, gzip or zstd."},
        subcommands = {ReplayCommand.class, ConformCommand.class, VerifyCommand.class, GenCommand.class,
                ExploreCommand.class, SoakCommand.class, ReportCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Examples:", "  arc", "  arc replay traces/lirs/gli.trace.gz --sizes 250,500,1000",
                "  zcat traces/lirs/gli.trace.gz | arc replay - --json",
                "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc gen --seed 7 --ops 200 -o random.ops",
                "  arc explore --tries 2000 --seed 7",
                "  arc soak --duration 1m --threads 8", "  arc report --concurrent 4 --out report.html",
                "  arc help explore", "", ExitCode.TABLE})
public final class ArcCommand implements Callable<Integer> {

    /**
     * The most characters of an error message: room for the file, line and rule around a quoted excerpt (inputs are
     * quoted at most 100 characters, {@link Excerpt}) and for a list of valid values, such as the settings.
     */
    private static final int MAX_MESSAGE = 1000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final InputStream stdin;

    /**
     * Shows notices as well as warnings on standard error ({@link Logging}); every subcommand takes it.
     *
     * @param verbose whether to
     */
    @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
            description = "Show notices on standard error too (the zthr priority mode of a concurrent command).")
    void verbose(boolean verbose) {
        Logging.configure(verbose);
    }

    ArcCommand(InputStream stdin) {
        this.stdin = stdin;
    }

    @Override
    public Integer call() {
        return spec.subcommands().get("replay").execute();
    }

    /**
     * Runs the command line and exits with its status.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        Interruption.Installed interruption = Interruption.install(System.err);
        StandardOutput out = StandardOutput.open();
        PrintWriter err = new PrintWriter(System.err, true);
        int status = out.finish(err, run(args, System.in, out, err));
        err.flush();
        interruption.close();
        if (interruption.signalled()) {
            // Ctrl-C began the JVM's shutdown, whose status is 130 whatever was found: a finding must still exit 1
            Runtime.getRuntime().halt(status);
        }
        System.exit(status);
    }

    /**
     * Runs the command line, reading {@code -} from {@code stdin} and writing to the given streams.
     *
     * @param args the arguments
     * @param stdin standard input
     * @param out standard output
     * @param err standard error
     * @return the exit status ({@link ExitCode})
     */
    public static int run(String[] args, InputStream stdin, PrintWriter out, PrintWriter err) {
        Logging.configure(false);
        return execute(configure(new CommandLine(new ArcCommand(stdin)), out, err), args, err);
    }

    /**
     * Executes a configured command line, turning an {@link Error} into one line and a status: an
     * {@link OutOfMemoryError} that the limits checked up front did not foresee is an input too large
     * ({@link ExitCode#BAD_INPUT}), any other error a bug ({@link ExitCode#INTERNAL_ERROR}).
     *
     * @param cl a command line given to {@link #configure}
     * @param args the arguments
     * @param err standard error
     * @return the exit status
     */
    static int execute(CommandLine cl, String[] args, PrintWriter err) {
        try {
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            err.println("arc: out of memory (" + e.getMessage() + "): the input needs more than this JVM's heap of "
                    + (Runtime.getRuntime().maxMemory() >> 20)
                    + " MiB; raise it with java -Xmx or use a smaller input");
            return ExitCode.BAD_INPUT;
        } catch (Error e) {
            return internalError(e, err);
        }
    }

    /**
     * Gives a command line {@code arc}'s streams and error handling: a usage error, bad input or an output that
     * cannot be written ({@link StandardOutput}) prints {@code arc: MESSAGE} and returns {@link ExitCode#BAD_INPUT}; anything else is a bug of {@code arc}
     * ({@link ExitCode#INTERNAL_ERROR}), except running out of memory, which is an input too large.
     *
     * @param cl the command line of {@code arc} or of one subcommand
     * @param out standard output
     * @param err standard error
     * @return {@code cl}
     */
    static CommandLine configure(CommandLine cl, PrintWriter out, PrintWriter err) {
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("arc: " + usageMessage(e) + " (try '" + e.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help')");
            return ExitCode.BAD_INPUT;
        });
        cl.setExecutionStrategy(parsed -> {
            try {
                return new CommandLine.RunLast().execute(parsed);
            } catch (UncheckedIOException e) {
                // standard output failed while picocli printed help or the version, outside any command's work
                err.println("arc: " + Excerpt.clip(String.valueOf(e.getMessage()), MAX_MESSAGE));
                return ExitCode.BAD_INPUT;
            }
        });
        cl.setExecutionExceptionHandler((e, c, p) -> {
            if (e instanceof Interruption.Interrupted) {
                err.println("arc: " + e.getMessage());
                return ExitCode.INTERRUPTED;
            }
            if (e instanceof TraceFormatException || e instanceof UncheckedIOException
                    || e instanceof IllegalArgumentException) {
                err.println("arc: " + Excerpt.clip(String.valueOf(e.getMessage()), MAX_MESSAGE));
                return ExitCode.BAD_INPUT;
            }
            return internalError(e, err);
        });
        return cl;
    }

    private static int internalError(Throwable e, PrintWriter err) {
        err.println("arc: internal error (a bug in arc; please report it with this output): " + e);
        e.printStackTrace(err);
        err.flush();
        return ExitCode.INTERNAL_ERROR;
    }

    /** @return standard input of the {@code arc} run that {@code spec} belongs to */
    static InputStream stdin(CommandLine.Model.CommandSpec spec) {
        return spec.root().userObject() instanceof ArcCommand arc ? arc.stdin : System.in;
    }

    private static String usageMessage(CommandLine.ParameterException e) {
        CommandLine cl = e.getCommandLine();
        String message = Excerpt.clip(String.valueOf(e.getMessage()), MAX_MESSAGE);
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String unmatched = u.getUnmatched().get(0);
            boolean subcommand = cl.getCommandSpec().userObject() instanceof ArcCommand && !unmatched.startsWith("-");
            List<String> names = new ArrayList<>(subcommand ? cl.getSubcommands().keySet()
                    : cl.getCommandSpec().optionsMap().keySet());
            String didYouMean = Spelling.closest(unmatched, names).map(c -> "; did you mean " + c + "?").orElse("");
            if (subcommand) {
                return "unknown subcommand " + Excerpt.of(unmatched) + "; the subcommands are "
                        + String.join(", ", names) + didYouMean;
            }
            return message + didYouMean;
        }
        return message;
    }
}
