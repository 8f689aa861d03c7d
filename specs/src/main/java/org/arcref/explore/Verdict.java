package org.arcref.explore;

import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;

/**
 * The result of running one check on one operation sequence.
 *
 * @param status passed, failed, or invalid (the spec rejected an operation, so the sequence tests nothing; a shrunk
 *     candidate that becomes invalid does not reproduce)
 * @param rule for a failure, what broke, for telling failures apart while shrinking: the {@link Property} a
 *     {@link PropertyViolation} named ({@code R4}, {@code D1}, {@code N1}, {@code C1}, {@code G1} …) or the simple
 *     class name of another exception; otherwise empty
 * @param message for a failure, what failed (first line: the rule and how it broke); for an invalid sequence, which
 *     operation and why; otherwise empty
 */
public record Verdict(Status status, String rule, String message) {

    /** The three outcomes of a check. */
    public enum Status {
        /** Every check held. */
        PASSED,
        /** A check failed. */
        FAILED,
        /** The spec rejected an operation. */
        INVALID
    }

    static final Verdict PASS = new Verdict(Status.PASSED, "", "");

    static Verdict invalid(String why) {
        return new Verdict(Status.INVALID, "", why);
    }

    /** @return the failure {@code v} reports, classified by its {@link PropertyViolation#property()} */
    static Verdict violated(PropertyViolation v) {
        return new Verdict(Status.FAILED, v.property().name(), v.getMessage());
    }

    /** @return a failure by an exception other than a {@link PropertyViolation}, classified by its class */
    static Verdict threw(Throwable e) {
        return new Verdict(Status.FAILED, e.getClass().getSimpleName(), e.getClass().getSimpleName() + ": "
                + e.getMessage());
    }

    /** @return whether a check failed */
    public boolean failed() {
        return status == Status.FAILED;
    }

    /** @return the first line of the message */
    public String firstLine() {
        return message.lines().findFirst().orElse("");
    }
}
