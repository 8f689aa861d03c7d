package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;

/**
 * The oracle binaries the tests run, built once per test JVM by {@code oracle/scripts/build.sh}: for every release of
 * {@code oracle/scripts/releases.tsv}, its arc.c as released ({@code arc-oracle-RELEASE}) and with each patch of
 * {@code oracle/patches/zfs-RELEASE/} ({@code arc-oracle-RELEASE+FIX}); each release's tarball found and checked by
 * {@code oracle/scripts/zfs-source.sh}, libzpool cached by the tarball's SHA-256 outside the clone. A machine that
 * cannot build them fails the test that asks, with the script's reason; {@code -Doracle.skip=true} skips the module
 * on purpose.
 */
final class Oracles {

    private static Path built;
    private static String failure;

    private Oracles() {
    }

    /**
     * @param release a release
     * @return the oracle of that release's arc.c as released
     */
    static Path released(ZfsRelease release) {
        return existing(directory().resolve("arc-oracle-" + release.version()));
    }

    /**
     * @param fix a fix that {@code oracle/patches/zfs-E/FIX.patch} states as a change of arc.c, E being the first
     *     release of the fix's engine
     * @return the oracle of that release's arc.c with that patch applied
     */
    static Path patched(QuirkFix fix) {
        return existing(directory().resolve("arc-oracle-" + fix.engine().version() + "+" + fix.name()));
    }

    /**
     * @param binary an oracle binary
     * @param engine the engine of its release
     * @param fixes the fixes its arc.c carries
     * @return a comparison of the spec with it, the spec run with the same fixes; close its process
     */
    static Session session(Path binary, ZfsEngine engine, Set<QuirkFix> fixes) {
        OracleProcess process = OracleProcess.start(binary);
        return new Session(process, new OracleComparison(process, engine, fixes));
    }

    /**
     * @param release a release
     * @return a comparison of the spec, following that release, with the release's own arc.c
     */
    static Session session(ZfsRelease release) {
        return session(released(release), release.engine(), release.fixes());
    }

    /** A running oracle and the comparison that uses it. */
    record Session(OracleProcess process, OracleComparison comparison) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private static Path existing(Path binary) {
        if (!Files.isExecutable(binary)) {
            fail("oracle/scripts/build.sh built no " + binary);
        }
        return binary;
    }

    private static synchronized Path directory() {
        if (built == null && failure == null) {
            Path out = Path.of(System.getProperty("oracle.out", "target"));
            Path scripts = Path.of(System.getProperty("oracle.scripts", "scripts"));
            try {
                Process p = new ProcessBuilder("bash", scripts.resolve("build.sh").toString(), out.toString())
                        .redirectErrorStream(true).start();
                String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                int status = p.waitFor();
                if (status == 0) {
                    built = out;
                } else {
                    failure = "oracle/scripts/build.sh exited " + status + ":\n" + tail(output);
                }
            } catch (IOException e) {
                failure = "cannot run oracle/scripts/build.sh: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = "interrupted while building the oracle";
            }
        }
        if (failure != null) {
            fail(failure);
        }
        return built;
    }

    private static String tail(String output) {
        String[] lines = output.split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = Math.max(0, lines.length - 30); i < lines.length; i++) {
            b.append(lines[i]).append('\n');
        }
        return b.toString();
    }
}
