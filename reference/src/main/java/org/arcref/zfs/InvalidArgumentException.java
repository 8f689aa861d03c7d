package org.arcref.zfs;

/**
 * A rejected argument: which one, and the rule it broke with the rejected value. The message is
 * the two joined, as in {@code cMin must be in [2048, 2305843009213693951], was 0}, so that a caller
 * that knows the argument by another name (a command-line option, a ZFS setting name) can name it
 * its own way without restating the rule.
 */
public final class InvalidArgumentException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String argument;
    private final String rule;

    /**
     * @param argument the argument's name
     * @param rule the rule and the rejected value, as in {@code must be >= 0, was -1}
     */
    public InvalidArgumentException(String argument, String rule) {
        super(argument + " " + rule);
        this.argument = argument;
        this.rule = rule;
    }

    /** @return the rejected argument's name */
    public String argument() {
        return argument;
    }

    /** @return the rule it broke and the rejected value, as in {@code must be >= 0, was -1} */
    public String rule() {
        return rule;
    }
}
