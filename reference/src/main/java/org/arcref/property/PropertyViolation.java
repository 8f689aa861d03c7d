package org.arcref.property;

import java.util.Objects;

/**
 * A broken promise: the one failure every checker throws. It names the {@link Property} that broke, says how
 * ({@link #detail()}), and renders the state it was seen in ({@link #state()}, for example a snapshot). Explorers
 * and tests classify a failure by {@link #property()}; the message is for people and may be reworded freely.
 *
 * <p>It is an {@link AssertionError}, as a failed check in a test is, so that the test frameworks report it as a
 * failure and the shrinkers treat it as the property failing.
 */
public final class PropertyViolation extends AssertionError {

    private static final long serialVersionUID = 1L;

    private final Property property;
    private final String detail;
    private final String state;

    /**
     * @param property the property that broke
     * @param detail how it broke, in one line (the rule and the values)
     * @param state the state it was seen in, rendered; empty when the detail says all
     * @throws NullPointerException if an argument is null
     */
    public PropertyViolation(Property property, String detail, String state) {
        super(message(property, detail, state));
        this.property = property;
        this.detail = detail;
        this.state = state;
    }

    private static String message(Property property, String detail, String state) {
        Objects.requireNonNull(property, "property");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(state, "state");
        return property + " violated: " + detail + (state.isEmpty() ? "" : "\nstate: " + state);
    }

    /** @return the property that broke */
    public Property property() {
        return property;
    }

    /** @return how it broke */
    public String detail() {
        return detail;
    }

    /** @return the state it was seen in, rendered; empty when none was given */
    public String state() {
        return state;
    }
}
