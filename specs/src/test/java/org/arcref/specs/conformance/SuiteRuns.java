package org.arcref.specs.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.arcref.conformance.ConformanceRun;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.trace.TraceFormatException;
import org.arcref.zfs.QuirkFix;
import org.arcref.zfs.ZfsEngine;

/**
 * The runs of an engine's conformance suite and their outputs: every built-in trace the engine runs, without fixes
 * and with every quirk fix of the engine, with every header listed (without, where
 * {@link ConformanceTrace#suiteListsHeaders} says so). zfs-2.1.1's engine runs the traces of {@code traces/INDEX};
 * zfs-2.2.0's those of {@code traces/INDEX-2.2.0}, then every zfs-2.1.1 built-in that sets nothing 2.2.0 lacks (the
 * porter's checklist of docs/porting.md, section 6.2).
 *
 * <p>Its methods take and return only strings, so that a class loader holding mutated copies of the spec's classes
 * ({@link SignednessMutants}) can run the suite through its own copy of this class.
 */
public final class SuiteRuns {

    /** The suffix of a run with every quirk fix. */
    static final String FIXED = "+fixes";

    private SuiteRuns() {
    }

    /**
     * @param engine an engine's {@link ZfsEngine#name()}
     * @return the built-in traces its suite runs, in index order
     */
    public static List<String> traces(String engine) {
        ZfsEngine e = ZfsEngine.valueOf(engine);
        List<String> names = new ArrayList<>(ConformanceTrace.builtinNames(e));
        if (e == ZfsEngine.V2_2_0) {
            for (String name : ConformanceTrace.builtinNames(ZfsEngine.V2_1_1)) {
                try {
                    ConformanceTrace.builtin(name).applySettings(ConformanceSettings.defaults(e));
                    names.add(name);
                } catch (TraceFormatException settingOf211Only) {
                    // a setting of zfs-2.1.1's engine alone (arc_p_min_shift, zfs_arc_p_dampener_disable)
                }
            }
        }
        return names;
    }

    /**
     * @param engine an engine's {@link ZfsEngine#name()}
     * @return its suite's runs: each trace's name, then the name with {@link #FIXED}
     */
    public static List<String> runs(String engine) {
        return traces(engine).stream().flatMap(name -> Stream.of(name, name + FIXED)).toList();
    }

    /**
     * @param engine an engine's {@link ZfsEngine#name()}
     * @param run one of {@link #runs}
     * @return the run's conformance output, line by line
     */
    public static List<String> output(String engine, String run) {
        ZfsEngine e = ZfsEngine.valueOf(engine);
        boolean fixed = run.endsWith(FIXED);
        String name = fixed ? run.substring(0, run.length() - FIXED.length()) : run;
        ConformanceTrace trace = ConformanceTrace.builtin(name);
        ConformanceSettings settings = trace.applySettings(ConformanceSettings.defaults(e))
                .withFixes(fixed ? QuirkFix.of(e) : EnumSet.noneOf(QuirkFix.class));
        return ConformanceRun.of(trace, settings, ConformanceTrace.suiteListsHeaders(name)).lines();
    }

    /**
     * @param engine an engine's {@link ZfsEngine#name()}
     * @param text a conformance trace's text, its settings in {@code # conform:} lines, for that engine
     * @return its conformance output without fixes, line by line, the headers not listed
     */
    public static List<String> outputOfText(String engine, String text) {
        ZfsEngine e = ZfsEngine.valueOf(engine);
        ConformanceTrace trace;
        try {
            trace = ConformanceTrace.read(new BufferedReader(new StringReader(text)), "generated");
        } catch (IOException impossible) {
            throw new UncheckedIOException(impossible);
        }
        return ConformanceRun.of(trace, trace.applySettings(ConformanceSettings.defaults(e)), false).lines();
    }
}
