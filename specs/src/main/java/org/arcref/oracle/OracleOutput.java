package org.arcref.oracle;

import java.util.List;

/**
 * What the oracle wrote for one trace: its conformance lines and how the run ended.
 *
 * @param lines the conformance lines, without terminators: the header, then one per operation it completed
 * @param ending how the run ended
 * @param message for {@link Ending#ERROR} and {@link Ending#CRASH}, the oracle's one-line reason; otherwise empty
 */
public record OracleOutput(List<String> lines, Ending ending, String message) {

    /** How an oracle run ended. */
    public enum Ending {
        /** Every operation ran. */
        OK,
        /** The oracle rejected the trace: a bad line, a setting arc.c cannot take, an operation it refuses. */
        ERROR,
        /** arc.c failed: a failed {@code ASSERT} (abort) or another signal; {@link #message()} says which. */
        CRASH
    }

    /** Copies the lines. */
    public OracleOutput {
        lines = List.copyOf(lines);
    }
}
