package org.arcref.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import org.arcref.trace.TraceFormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code arc} command. With no subcommand it runs {@code arc replay} on its built-in
 * workload. Errors print one line, {@code arc: ...}, and exit with 1 (bad input: a trace line, a
 * file, a value) or 2 (bad usage: an unknown option or a malformed argument).
 */
@Command(name = "arc", mixinStandardHelpOptions = true, version = "arc 0.1.0 (ZFS 2.1.1 ARC reference)",
        description = {"A checked reference of the OpenZFS 2.1.1 Adaptive Replacement Cache.",
                "Without a subcommand, runs 'arc replay' on the built-in synthetic workload."},
        subcommands = {ReplayCommand.class, ConformCommand.class, VerifyCommand.class, ExploreCommand.class,
                SoakCommand.class, ReportCommand.class},
        footer = {"", "Examples:", "  arc", "  arc replay ../shared/traces/lirs/gli.trace.gz --sizes 250,500,1000",
                "  arc replay --policies zfs,lru --json", "  arc conform ghost-adaptation -o expected.jsonl",
                "  arc verify expected.jsonl my-port.jsonl", "  arc explore --tries 2000 --seed 7",
                "  arc soak --duration 1m --threads 8", "  arc report --concurrent 4 --out report.html"})
public final class ArcCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

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
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line, writing to the given streams.
     *
     * @param args the arguments
     * @param out standard output
     * @param err standard error
     * @return the exit status
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new ArcCommand());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(out);
        cl.setErr(err);
        cl.setParameterExceptionHandler((e, a) -> {
            err.println("arc: " + e.getMessage() + " (try 'arc --help')");
            return 2;
        });
        cl.setExecutionExceptionHandler((e, c, p) -> {
            if (e instanceof TraceFormatException || e instanceof UncheckedIOException
                    || e instanceof IllegalArgumentException) {
                err.println("arc: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cl.execute(args);
    }
}
