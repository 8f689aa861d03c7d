package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.arcref.zfs.QuirkFix;

/**
 * The oracle binaries the tests run, built once per test JVM by {@code oracle/scripts/build.sh} (libzpool cached by
 * the tarball's SHA-256 outside the clone). A machine that cannot build them fails the test that asks, with the
 * script's reason; {@code -Doracle.skip=true} skips the module on purpose.
 */
final class Oracles {

    private static Path built;
    private static String failure;

    private Oracles() {
    }

    /** @return the oracle of arc.c as released */
    static Path released() {
        return directory().resolve("arc-oracle");
    }

    /**
     * @param fix a quirk fix the build applies to arc.c ({@code oracle/scripts/fixes/FIX.sed})
     * @return the oracle of arc.c with that fix
     */
    static Path fixed(QuirkFix fix) {
        return directory().resolve("arc-oracle-" + fix.name());
    }

    /**
     * @param binary an oracle binary
     * @param fixes the fixes compiled into it
     * @return a comparison of the spec with it, the spec run with the same fixes; close its process
     */
    static Session session(Path binary, Set<QuirkFix> fixes) {
        OracleProcess process = OracleProcess.start(binary);
        return new Session(process, new OracleComparison(process, fixes));
    }

    /** @return a comparison of the spec with the released oracle */
    static Session released2_1_1() {
        return session(released(), EnumSet.noneOf(QuirkFix.class));
    }

    /** A running oracle and the comparison that uses it. */
    record Session(OracleProcess process, OracleComparison comparison) implements AutoCloseable {
        @Override
        public void close() {
            process.close();
        }
    }

    private static synchronized Path directory() {
        if (built == null && failure == null) {
            Path out = Path.of(System.getProperty("oracle.out", "target"));
            Path scripts = Path.of(System.getProperty("oracle.scripts", "scripts"));
            String tarball = System.getProperty("oracle.tarball", "../../shared/zfs/zfs-2.1.1.tar.gz");
            try {
                Process p = new ProcessBuilder("bash", scripts.resolve("build.sh").toString(), tarball,
                        out.toString()).redirectErrorStream(true).start();
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
