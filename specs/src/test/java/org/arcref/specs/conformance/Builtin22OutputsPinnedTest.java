package org.arcref.specs.conformance;

import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.ZfsEngine;

/**
 * zfs-2.2.0's engine's conformance suite against its pinned outputs, {@code builtin-outputs-2.2.0.sha256}
 * ({@link PinnedBuiltinOutputs}), without fixes and with the engine's three: the traces written for it
 * ({@code traces/INDEX-2.2.0}), then every built-in trace of zfs-2.1.1's engine that sets nothing 2.2.0 lacks (the
 * porter's checklist of docs/porting.md, section 6.2, runs both; {@code Zfs22OracleTest} compares both with arc.c).
 */
class Builtin22OutputsPinnedTest extends PinnedBuiltinOutputs {

    Builtin22OutputsPinnedTest() {
        super(ZfsEngine.V2_2_0, "builtin-outputs-2.2.0.sha256");
    }

    @Override
    List<String> traces() {
        List<String> names = new ArrayList<>(ConformanceTrace.builtinNames(ZfsEngine.V2_2_0));
        for (String name : ConformanceTrace.builtinNames(ZfsEngine.V2_1_1)) {
            try {
                ConformanceTrace.builtin(name).applySettings(ConformanceSettings.defaults(ZfsEngine.V2_2_0));
                names.add(name);
            } catch (TraceFormatException settingOf211Only) {
                // a setting of zfs-2.1.1's engine alone (arc_p_min_shift, zfs_arc_p_dampener_disable)
            }
        }
        return names;
    }
}
