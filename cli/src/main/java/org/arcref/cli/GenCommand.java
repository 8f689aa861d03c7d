package org.arcref.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.arcref.explore.Explorer;
import org.arcref.explore.RandomScenario;
import org.arcref.zfs.ZfsEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code arc gen}: writes random valid op traces, each carrying every setting in a {@code # conform:} line, so that
 * {@code arc conform FILE} runs it exactly as it was drawn. The traces come from {@code arc explore}'s generator
 * ({@link RandomScenario#generate}): trace {@code i} of seed {@code S} is try {@code i} of
 * {@code arc explore --checks oracle --seed S} (try seed {@link Explorer#trySeed}{@code (S, i)}: its settings,
 * which have no quirk fixes, and its operations) unless {@code --ops}, {@code --keys} or {@code --set} change it;
 * {@code --zfs} names the release whose engine's tries are drawn, as {@code arc explore --zfs} does. The same options
 * give the same traces, byte for byte.
 *
 * <p>The options and the output target are checked before the first trace is drawn; {@code --set}, which applies
 * to a drawn configuration, when the first trace is drawn (one that is invalid with the configuration drawn for a
 * later trace stops the run there, naming the trace). With {@code --count} the traces
 * go to {@code DIR/gen-SEED-I.ops}, {@code I} from 0.
 */
@Command(name = "gen", mixinStandardHelpOptions = true,
        description = {"Write random valid op traces, drawn by arc explore's generator, each with its settings in a",
                "'# conform:' line so that 'arc conform FILE' reproduces it exactly.",
                "Trace I of --seed S is try I of 'arc explore --checks oracle --seed S' (no quirk fixes) unless",
                "--ops, --keys or --set change it; with --zfs R, of 'arc explore --checks oracle --zfs R", "--seed S'.",
                "One trace goes to standard output or -o FILE; with",
                "--count N, N traces go to -o DIR as gen-S-0.ops ... gen-S-(N-1).ops."},
        footer = {"", "Examples:", "  arc gen --seed 7 > t.ops && arc conform t.ops -o t.jsonl && arc verify t.jsonl",
                "  arc gen --seed 7 --ops 200 --keys 8 -o t.ops",
                "  arc gen --seed 7 --set spa_maxblocksize=1024 --set hz=300",
                "  arc gen --zfs 2.2.0 --seed 7 > t22.ops && arc conform --zfs 2.2.0 t22.ops -o t22.jsonl",
                "  mkdir -p traces && arc gen --seed 7 --count 100 -o traces",
                "", "Exit status: 0 written, 2 bad usage or input, 3 internal error (see arc --help)."})
final class GenCommand implements Callable<Integer> {

    /** The most operations of one trace. */
    static final int MAX_OPS = 1_000_000;
    /** The most traces of one run. */
    static final int MAX_COUNT = 100_000;

    @Spec
    CommandSpec spec;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the traces (default: random, printed).")
    Long seed;

    @Option(names = "--ops", paramLabel = "N",
            description = "Operations per trace, 1 to " + MAX_OPS + " (default: drawn, 20 to 120, as explore draws).")
    Integer ops;

    @Option(names = "--keys", paramLabel = "K",
            description = "Keys read, 0 to K-1, K from 1 to " + RandomScenario.FIRST_WRITE_KEY
                    + " (the first written key; default: " + RandomScenario.READ_KEYS
                    + " with zfs-2.1.1's engine, drawn (12, 24 or 48) with zfs-2.2.0's).")
    Integer keys;

    @Option(names = "--zfs", paramLabel = "RELEASE",
            description = "The release whose engine's tries are drawn: 2.1.1 (the default) or 2.1.16 draw zfs-2.1.1's "
                    + "engine's, 2.2.0 or 2.2.11 zfs-2.2.0's (data and metadata, uncached reads and writes); the "
                    + "trace names no quirk fix, so 'arc conform --zfs RELEASE' applies the release's.")
    String zfs;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "A setting (by its ZFS name, as in arc conform's header) replacing the drawn one; the "
                    + "operations are drawn on the settings so changed. Repeatable.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--count", paramLabel = "N",
            description = "Write N traces, 1 to " + MAX_COUNT + ", to -o DIR (an existing directory).")
    Integer count;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE|DIR",
            description = "The file to write (- is standard output, the default); with --count, the directory.")
    Path output;

    @Override
    public Integer call() {
        if (ops != null && (ops < 1 || ops > MAX_OPS)) {
            throw new IllegalArgumentException("--ops must be in [1, " + MAX_OPS + "], was " + ops);
        }
        if (keys != null) {
            RandomScenario.requireReadKeys(keys);
        }
        ZfsEngine engine = ZfsOption.release(zfs).engine();
        SettingAssignments.check(sets);
        if (count != null) {
            if (count < 1 || count > MAX_COUNT) {
                throw new IllegalArgumentException("--count must be in [1, " + MAX_COUNT + "], was " + count);
            }
            if (output == null || InputFile.isDash(output)) {
                throw new IllegalArgumentException("--count needs -o DIR, the directory the traces are written to, "
                        + "was " + (output == null ? "not given" : "-"));
            }
            OutputFolder.requireDirectory("-o/--output with --count", output);
        } else if (output != null && !InputFile.isDash(output)) {
            OutputFolder.require("-o/--output", output);
        }
        long s = seed != null ? seed : System.nanoTime() ^ System.identityHashCode(this);
        PrintWriter err = spec.commandLine().getErr();
        err.println("arc gen: seed " + s);
        err.flush();
        if (count == null) {
            String text = trace(engine, s, 0);
            if (output == null || InputFile.isDash(output)) {
                PrintWriter out = spec.commandLine().getOut();
                out.write(text);
                out.flush();
            } else {
                write(output, text);
            }
            return ExitCode.SUCCESS;
        }
        for (int i = 0; i < count; i++) {
            if (Interruption.requested()) {
                err.println("arc gen: interrupted after writing " + i + " of " + count + " traces to " + output
                        + (i > 0 ? ": " + fileName(s, 0) + (i > 1 ? " ... " + fileName(s, i - 1) : "") : ""));
                err.flush();
                return ExitCode.INTERRUPTED;
            }
            write(output.resolve(fileName(s, i)), trace(engine, s, i));
        }
        err.println("arc gen: wrote " + count + " traces to " + output + ": " + fileName(s, 0)
                + (count > 1 ? " ... " + fileName(s, count - 1) : ""));
        err.flush();
        return ExitCode.SUCCESS;
    }

    /**
     * @param seed the seed
     * @param index a trace's index, from 0
     * @return the name of its file with {@code --count}: {@code gen-SEED-INDEX.ops}
     */
    static String fileName(long seed, int index) {
        return "gen-" + seed + "-" + index + ".ops";
    }

    /** Trace {@code index} of {@code seed}: a comment line naming how it was made, then its settings and operations. */
    private String trace(ZfsEngine engine, long seed, int index) {
        long trySeed = Explorer.trySeed(seed, index);
        RandomScenario.Generated g;
        try {
            g = RandomScenario.generate(engine, trySeed, drawn -> SettingAssignments.apply(drawn, sets), ops, keys);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (trace " + index + ", try seed " + trySeed + ")", e);
        }
        StringBuilder made = new StringBuilder("# arc gen" + (zfs != null ? " --zfs " + zfs : "") + " --seed " + seed);
        if (ops != null) {
            made.append(" --ops ").append(ops);
        }
        if (keys != null) {
            made.append(" --keys ").append(keys);
        }
        sets.forEach(set -> made.append(" --set ").append(set));
        made.append(": trace ").append(index).append(" (try seed ").append(trySeed).append(")\n");
        return made + g.text();
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
