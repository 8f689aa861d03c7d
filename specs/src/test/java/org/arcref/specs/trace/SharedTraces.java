package org.arcref.specs.trace;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the shared LIRS traces, which live beside the repository at {@code ../shared/traces/lirs}
 * (relative to the repository root). Tests may run with any module directory as working directory, so
 * this walks up from the working directory to the first directory whose sibling {@code shared/traces}
 * exists. Missing traces fail the test with a message saying where they were looked for: a test that
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
     * @return the path of {@code ../shared/traces/lirs/NAME.trace.gz}
     * @throws IllegalStateException if the shared traces or this trace cannot be found
     */
    public static Path lirs(String name) {
        Path trace = lirsDirectory().resolve(name + ".trace.gz");
        if (!Files.isRegularFile(trace)) {
            throw new IllegalStateException("shared trace is missing: " + trace);
        }
        return trace;
    }

    private static Path lirsDirectory() {
        Path start = Path.of("").toAbsolutePath();
        for (Path dir = start; dir != null && dir.getParent() != null; dir = dir.getParent()) {
            Path lirs = dir.resolveSibling("shared").resolve("traces").resolve("lirs");
            if (Files.isDirectory(lirs)) {
                return lirs;
            }
        }
        throw new IllegalStateException("cannot find the shared traces: no directory from " + start
                + " upwards has a sibling shared/traces/lirs (expected ../shared/traces/lirs from the repository root)");
    }
}
