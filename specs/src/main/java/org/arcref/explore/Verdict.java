package org.arcref.explore;

/**
 * The result of running one check on one operation sequence.
 *
 * @param status passed, failed, or invalid (the spec rejected an operation, so the sequence tests nothing; a shrunk
 *     candidate that becomes invalid does not reproduce)
 * @param message for a failure, what failed (first line: the rule); for an invalid sequence, which operation and
 *     why; otherwise empty
 */
public record Verdict(Status status, String message) {

    /** The three outcomes of a check. */
    public enum Status {
        /** Every check held. */
        PASSED,
        /** A check failed. */
        FAILED,
        /** The spec rejected an operation. */
        INVALID
    }

    static final Verdict PASS = new Verdict(Status.PASSED, "");

    static Verdict invalid(String why) {
        return new Verdict(Status.INVALID, why);
    }

    static Verdict failed(String message) {
        return new Verdict(Status.FAILED, message);
    }

    /** @return whether a check failed */
    public boolean failed() {
        return status == Status.FAILED;
    }

    /** @return the first line of the message */
    public String firstLine() {
        return message.lines().findFirst().orElse("");
    }

    /**
     * @return the rule that failed, for telling failures apart while shrinking: {@code R4}, {@code D1}, {@code N1},
     *     {@code C1 violated}, {@code agreement} or an exception's class name
     */
    public String rule() {
        String m = firstLine();
        if (m.startsWith("invariant violated: ")) {
            m = m.substring("invariant violated: ".length());
        }
        int colon = m.indexOf(':');
        return colon < 0 ? m : m.substring(0, colon);
    }
}
