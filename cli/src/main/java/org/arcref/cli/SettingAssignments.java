package org.arcref.cli;

import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
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
     * @param base the settings before the options
     * @param sets the options' values, {@code NAME=VALUE} each, in order (a later one of a setting wins)
     * @return {@code base} with them
     * @throws IllegalArgumentException starting {@code --set}, naming the setting, the rule and the value, if one is
     *     malformed or they make the configuration invalid
     */
    static ConformanceSettings apply(ConformanceSettings base, List<String> sets) {
        List<ConformanceTrace.Assignment> given = new ArrayList<>();
        try {
            for (String text : sets) {
                given.add(ConformanceTrace.Assignment.parse(0, text));
            }
            return base.with(ConformanceTrace.Assignment.toMap(given));
        } catch (InvalidArgumentException e) {
            throw new IllegalArgumentException("--set " + e.argument() + ": " + e.rule(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set: " + e.getMessage(), e);
        }
    }
}
