package org.arcref.specs.trace;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the LIRS traces the tests share, which the repository keeps at {@code traces/lirs} (see
 * {@code traces/README.md}). Tests may run with any module directory as working directory, so
 * this walks up from the working directory to the first directory that holds {@code traces/lirs}.
 * Missing traces fail the test with a message saying where they were looked for: a test that
 * needs a trace never skips silently.
 */
public final class SharedTraces {

    /** The 13 LIRS traces, by the name before {@code .trace.gz}. */
    public static final String[] LIRS_NAMES = {
        "2_pools", "backf", "cpp", "cs", "gli", "loop", "multi1", "multi2", "multi3", "ps", "scan", "sprite", "zigzag",
    };

    private SharedTraces() {
    }

    /**
     * @param name a trace name such as {@code gli}
     * @return the path of {@code traces/lirs/NAME.trace.gz} in the repository
     * @throws IllegalStateException if the traces folder or this trace cannot be found
     */
    public static Path lirs(String name) {
        Path trace = lirsDirectory().resolve(name + ".trace.gz");
        if (!Files.isRegularFile(trace)) {
            throw new IllegalStateException("LIRS trace is missing: " + trace);
        }
        return trace;
    }

    private static Path lirsDirectory() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path lirs = dir.resolve("traces").resolve("lirs");
            if (Files.isDirectory(lirs)) {
                return lirs;
            }
        }
        throw new IllegalStateException("cannot find the LIRS traces: no directory from " + start
                + " upwards holds traces/lirs (expected traces/lirs in the repository root)");
    }
}
