package org.arcref.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.conformance.Setting;
import org.arcref.zfs.InvalidArgumentException;

/**
 * The {@code --set NAME=VALUE} options of {@code arc conform} and {@code arc gen}: conformance settings
 * ({@link org.arcref.conformance.Setting}) by their ZFS names, applied all at once on top of other settings, so that
 * related limits ({@code arc_c_min}, {@code arc_c_max}) may be given in any order.
 */
final class SettingAssignments {

    private SettingAssignments() {
    }

    /**
     * Checks the options' names and values alone, before any work (whether they fit the other settings is known only
     * when they are {@link #apply applied}).
     *
     * @param sets the options' values, {@code NAME=VALUE} each
     * @throws IllegalArgumentException starting {@code --set}, naming the setting, the rule and the value, if one is
     *     malformed
     */
    static void check(List<String> sets) {
        assignments(sets);
    }

    /**
     * @param base the settings before the options
     * @param sets the options' values, {@code NAME=VALUE} each, in order (a later one of a setting wins)
     * @return {@code base} with them
     * @throws IllegalArgumentException starting {@code --set}, naming the setting, the rule and the value, if one is
     *     malformed or they make the configuration invalid
     */
    static ConformanceSettings apply(ConformanceSettings base, List<String> sets) {
        Map<Setting, Long> given = ConformanceTrace.Assignment.toMap(assignments(sets));
        try {
            return base.with(given);
        } catch (IllegalArgumentException e) {
            throw named(e);
        }
    }

    private static List<ConformanceTrace.Assignment> assignments(List<String> sets) {
        List<ConformanceTrace.Assignment> given = new ArrayList<>();
        try {
            for (String text : sets) {
                given.add(ConformanceTrace.Assignment.parse(0, text));
            }
        } catch (IllegalArgumentException e) {
            throw named(e);
        }
        return given;
    }

    /** @return the failure as one message starting {@code --set} */
    private static IllegalArgumentException named(IllegalArgumentException e) {
        return e instanceof InvalidArgumentException i
                ? new IllegalArgumentException("--set " + i.argument() + ": " + i.rule(), e)
                : new IllegalArgumentException("--set: " + e.getMessage(), e);
    }
}
