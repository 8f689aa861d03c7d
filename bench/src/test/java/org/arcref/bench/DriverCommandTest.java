package org.arcref.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.arcref.bench.cache.HitRatios;
import org.arcref.bench.evictor.EvictorPriorityExperiment;
import org.arcref.bench.evictor.EvictorWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench drivers' command lines: bad input is one line naming the argument, the rule and the value with exit 1,
 * too few or too many arguments the usage line with exit 2, and neither does any work or prints a stack trace.
 */
class DriverCommandTest {

    @TempDir
    Path dir;

    /** Exit status and standard error of one run. */
    private record Run(int status, String err) {
    }

    private static Run run(DriverCommand command, String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int status = command.run(args, err);
        return new Run(status, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void hitRatiosChecksItsTraceFolder() throws Exception {
        Path missing = dir.resolve("no-traces");
        Path csv = dir.resolve("out.csv");
        assertEquals(new Run(1, "TRACE_DIR: must be an existing folder, was " + missing + "\n"),
                run(HitRatios.COMMAND, missing.toString(), csv.toString()));
        assertEquals(new Run(1, "TRACE_DIR: must hold *.trace.gz files, was " + dir + " (none)\n"),
                run(HitRatios.COMMAND, dir.toString(), csv.toString()));
        assertEquals(new Run(2, "usage: HitRatios TRACE_DIR OUT.csv\n"), run(HitRatios.COMMAND, dir.toString()));
        assertFalse(Files.exists(csv), "no output written");
    }

    @Test
    void jmhExperimentChecksItsExperimentAndOptions() throws Exception {
        Path out = dir.resolve("out");
        assertEquals(new Run(1, "EXPERIMENT: must be one of e2-aggsum, e2-arcp, e3-cache, was e9\n"),
                run(JmhExperiment.COMMAND, "e9", out.toString()));
        assertEquals(new Run(1, "--threads: must be a list of positive integers, was 1,x\n"),
                run(JmhExperiment.COMMAND, "e2-aggsum", out.toString(), "--threads", "1,x"));
        assertEquals(new Run(1,
                "option: must be --threads LIST, --smoke, --quick or --param NAME=VALUES, was --fast\n"),
                run(JmhExperiment.COMMAND, "e2-aggsum", out.toString(), "--fast"));
        assertEquals(new Run(1, "--param: must be NAME=V1,V2, was cache\n"),
                run(JmhExperiment.COMMAND, "e3-cache", out.toString(), "--param", "cache"));
        assertEquals(new Run(1, "--param: must be followed by a value, was the end\n"),
                run(JmhExperiment.COMMAND, "e3-cache", out.toString(), "--param"));
        assertEquals(new Run(2, "usage: JmhExperiment EXPERIMENT OUTDIR [--threads 1,2,4] [--smoke | --quick] "
                + "[--param NAME=V1,V2]...\n"), run(JmhExperiment.COMMAND));
        assertFalse(Files.exists(out), "no output written");
    }

    @Test
    void evictorDriversCheckTheirNumbers() throws Exception {
        String csv = dir.resolve("e1.csv").toString();
        assertEquals(new Run(1, "--reps: must be an integer >= 1, was 0\n"),
                run(EvictorPriorityExperiment.COMMAND, csv, "--reps", "0"));
        assertEquals(new Run(1, "--seconds: must be a number of seconds > 0, was five\n"),
                run(EvictorPriorityExperiment.COMMAND, csv, "--seconds", "five"));
        assertEquals(new Run(1, "--warmup: must be followed by a value, was the end\n"),
                run(EvictorPriorityExperiment.COMMAND, csv, "--warmup"));
        assertEquals(new Run(2, "usage: EvictorPriorityExperiment OUT.csv [--reps N] [--warmup S] [--seconds S]\n"),
                run(EvictorPriorityExperiment.COMMAND));
        assertEquals(new Run(1, "PRIORITY: must be one of [MINCLSYSPRI, DEFCLSYSPRI, MAXCLSYSPRI], was LOW\n"),
                run(EvictorWorkload.COMMAND, "LOW", "0", "1"));
        assertEquals(new Run(1, "WARMUP_SECONDS: must be a number of seconds >= 0, was -1\n"),
                run(EvictorWorkload.COMMAND, "MINCLSYSPRI", "-1", "1"));
        assertFalse(Files.exists(Path.of(csv)), "no output written");
    }
}
