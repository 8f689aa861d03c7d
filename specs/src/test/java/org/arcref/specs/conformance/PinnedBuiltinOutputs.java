package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance suite of one engine as a test of the spec ({@link BuiltinOutputsPinnedTest} for zfs-2.1.1's,
 * {@link Builtin22OutputsPinnedTest} for zfs-2.2.0's): every run of the engine's suite ({@link SuiteRuns}: each
 * built-in trace it runs, with every header listed, without fixes and with every quirk fix of the engine) must give,
 * line for line, the output pinned in the engine's pin file. The pins are the unmutated spec's output,
 * which the oracle module shows equal to the release's {@code arc.c} on every built-in
 * ({@code ConformanceTracesOracleTest}, {@code Zfs22OracleTest}); the runs with the fixes are pinned as the spec gives
 * them (each fix is proven against the arc.c that carries it in {@code QuirkFixProvenanceOracleTest}).
 *
 * <p>This is the measure of the suite's strength (docs/conformance.md, "How strong the suite is"): PIT's
 * {@code -Pmutation} run with {@code mutation.targetTests} set to one of the two subclasses mutates the engine and
 * counts the mutants that change some built-in trace's output, which is what a porter comparing a port's output
 * with the expected one would see.
 *
 * <p>The pin file holds, per run, one line {@code RUN LINE SHA256-PREFIX} for each output line (the
 * header is line 1; a run is {@code NAME} or {@code NAME+fixes}), the first 16 hex digits of the SHA-256 of the line's
 * UTF-8 text: a divergence is reported at its first line without storing megabytes of expected output. After a
 * deliberate change of the spec's behaviour (checked against {@code arc.c} by the oracle module), rewrite the pins
 * with {@code mvn -B -ntp -pl specs -am test -Dtest='Builtin*OutputsPinnedTest' -Dsurefire.failIfNoSpecifiedTests=false
 * -Dbuiltins.repin=true}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PinnedBuiltinOutputs {

    private final ZfsEngine engine;
    private final String pinFile;
    private final Path pinSource;

    /**
     * @param engine the engine whose built-in traces are run
     * @param pinFile the pin file's name, a test resource of this package
     */
    PinnedBuiltinOutputs(ZfsEngine engine, String pinFile) {
        this.engine = engine;
        this.pinFile = pinFile;
        this.pinSource = Path.of("src/test/resources/org/arcref/specs/conformance", pinFile);
    }

    /** @return the engine's suite's runs ({@link SuiteRuns#runs}) */
    Stream<String> runs() {
        return SuiteRuns.runs(engine.name()).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void theOutputWithEveryHeaderIsThePinnedOne(String name) {
        List<String> lines = SuiteRuns.output(engine.name(), name);
        if (Boolean.getBoolean("builtins.repin")) {
            repin(name, lines);
            return;
        }
        List<String> pinned = pins().get(name);
        if (pinned == null) {
            fail(name + " has no pins in " + pinFile + "; pin it with -Dbuiltins.repin=true");
        }
        for (int i = 0; i < Math.min(lines.size(), pinned.size()); i++) {
            if (!digest(lines.get(i)).equals(pinned.get(i))) {
                fail(name + " output line " + (i + 1) + (i == 0 ? " (the header)" : " (operation " + i
                        + ")") + " differs from its pin: " + lines.get(i));
            }
        }
        assertEquals(pinned.size(), lines.size(), name + " output lines");
    }

    @Test
    void everyPinnedRunIsABuiltinsRun() {
        assumeFalse(Boolean.getBoolean("builtins.repin"), "repinning: the pins on the class path are the old ones");
        assertEquals(runs().toList(), List.copyOf(pins().keySet()), pinFile + "'s runs, in INDEX order");
    }

    /** Each run's pinned line digests, in line order, read once. */
    private Map<String, List<String>> cachedPins;

    /** @return each run's pinned line digests, in line order */
    private synchronized Map<String, List<String>> pins() {
        if (cachedPins == null) {
            cachedPins = readPins();
        }
        return cachedPins;
    }

    private Map<String, List<String>> readPins() {
        Map<String, List<String>> pins = new LinkedHashMap<>();
        InputStream in = PinnedBuiltinOutputs.class.getResourceAsStream(pinFile);
        if (in == null) {
            throw new UncheckedIOException(new IOException("missing test resource " + pinFile));
        }
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split(" ");
                List<String> digests = pins.computeIfAbsent(f[0], k -> new ArrayList<>());
                assertEquals(digests.size() + 1, Integer.parseInt(f[1]), pinFile + ": line numbers of " + f[0]);
                digests.add(f[2]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pins;
    }

    /** Replaces the run's pins in the source tree's pin file, keeping the other runs' pins, in {@link #runs()} order. */
    private synchronized void repin(String run, List<String> lines) {
        try {
            Map<String, List<String>> pins = new LinkedHashMap<>();
            if (Files.exists(pinSource)) {
                for (String line : Files.readAllLines(pinSource)) {
                    String[] f = line.split(" ");
                    pins.computeIfAbsent(f[0], k -> new ArrayList<>()).add(f[2]);
                }
            }
            pins.put(run, lines.stream().map(PinnedBuiltinOutputs::digest).toList());
            List<String> out = new ArrayList<>();
            runs().filter(pins::containsKey).forEach(r -> {
                List<String> digests = pins.get(r);
                for (int i = 0; i < digests.size(); i++) {
                    out.add(r + " " + (i + 1) + " " + digests.get(i));
                }
            });
            Files.write(pinSource, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(String line) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(line.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
