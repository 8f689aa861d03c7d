package org.arcref.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options a user typed on a command line, so that one given in a mode where it has no effect is rejected rather
 * than silently ignored (a typo, a misunderstanding: either way the run would not be the one asked for).
 */
final class GivenOptions {

    private GivenOptions() {
    }

    /**
     * @param spec the command
     * @param option an option's name, as declared ({@code --seed})
     * @return whether the user typed it
     */
    static boolean given(CommandSpec spec, String option) {
        ParseResult parsed = spec.commandLine().getParseResult();
        return parsed != null && parsed.hasMatchedOption(option);
    }

    /**
     * @param spec the command
     * @param mode the mode that ignores them, as a phrase ({@code with a TRACE file})
     * @param options the options' names
     * @throws IllegalArgumentException naming the first option given, the mode and why
     */
    static void reject(CommandSpec spec, String mode, String... options) {
        for (String option : options) {
            if (given(spec, option)) {
                throw new IllegalArgumentException(option + " has no effect " + mode + ", was given");
            }
        }
    }
}
