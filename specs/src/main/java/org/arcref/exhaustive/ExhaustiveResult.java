package org.arcref.exhaustive;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.arcref.conformance.JsonWriter;
import org.arcref.conformance.Transition;

/**
 * What an exhaustive exploration did: how far it got, why it stopped, what it reached and the first violation.
 *
 * @param stop why it stopped
 * @param states distinct states visited (each checked; those below the depth bound also expanded)
 * @param transitions operations the spec accepted, each checked
 * @param rejected operations the spec rejected, each checked to leave the state unchanged (B1)
 * @param statesPerDepth the number of distinct states first reached at each depth, from depth 0
 * @param elapsed the wall-clock time
 * @param transitionDepth for each conformance {@link Transition} reached, the depth of the first operation showing
 *     it (the length of a shortest path to it)
 * @param quirkDepth for each {@link QuirkWitness} seen, the depth of its first transition
 * @param violation the first violation, or null
 */
public record ExhaustiveResult(Stop stop, long states, long transitions, long rejected, List<Long> statesPerDepth,
        Duration elapsed, Map<Transition, Integer> transitionDepth, Map<QuirkWitness, Integer> quirkDepth,
        Violation violation) {

    /** Why an exploration stopped. */
    public enum Stop {
        /** Every reachable state was expanded: no state is new within the depth bound, and none lies at it. */
        COMPLETE,
        /** States at the depth bound were left unexpanded. */
        DEPTH_BOUND,
        /** The state bound was reached. */
        STATE_BOUND,
        /** Asked to stop (Ctrl-C). */
        INTERRUPTED,
        /** A check failed. */
        VIOLATION
    }

    /** Copies the collections. */
    public ExhaustiveResult {
        statesPerDepth = List.copyOf(statesPerDepth);
        transitionDepth = transitionDepth.isEmpty() ? Map.of() : new EnumMap<>(transitionDepth);
        quirkDepth = quirkDepth.isEmpty() ? Map.of() : new EnumMap<>(quirkDepth);
    }

    /** @return the deepest depth at which a state was reached */
    public int depthReached() {
        return statesPerDepth.size() - 1;
    }

    /** @return the violation, if one was found */
    public Optional<Violation> firstViolation() {
        return Optional.ofNullable(violation);
    }

    /** @return the conformance transitions not reached, in declaration order */
    public List<Transition> unreached() {
        List<Transition> missing = new ArrayList<>();
        for (Transition t : Transition.values()) {
            if (!transitionDepth.containsKey(t)) {
                missing.add(t);
            }
        }
        return missing;
    }

    /** @return a one-line summary */
    public String summary() {
        return String.format(Locale.ROOT,
                "%s: %,d states, %,d transitions (%,d rejected operations), depth %d, %.1f s, %d of %d transitions"
                        + " reached, quirks seen: %s",
                stop.name().toLowerCase(Locale.ROOT).replace('_', ' '), states, transitions, rejected,
                depthReached(), elapsed.toMillis() / 1000.0, transitionDepth.size(), Transition.values().length,
                quirkDepth.isEmpty() ? "none" : quirkDepth.keySet());
    }

    /**
     * @param bounds the bounds explored
     * @return the result as one JSON object
     */
    public String toJson(ExhaustiveBounds bounds) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("stop", stop.name());
        json.put("keys", bounds.alphabet().keys());
        json.put("sublists", bounds.config().sublists());
        json.put("evictorRunsAfterEachOperation", bounds.config().evictorRunsAfterEachOperation());
        List<Object> fixes = new ArrayList<>();
        bounds.config().fixes().forEach(f -> fixes.add(f.name()));
        json.put("fixes", fixes);
        json.put("maxDepth", bounds.maxDepth());
        json.put("maxStates", bounds.maxStates());
        json.put("states", states);
        json.put("transitions", transitions);
        json.put("rejected", rejected);
        json.put("depthReached", depthReached());
        json.put("statesPerDepth", new ArrayList<Object>(statesPerDepth));
        json.put("seconds", BigDecimal.valueOf(elapsed.toMillis()).divide(BigDecimal.valueOf(1000), 3,
                RoundingMode.HALF_UP));
        Map<String, Object> reached = new LinkedHashMap<>();
        transitionDepth.forEach((t, d) -> reached.put(t.name(), d));
        json.put("transitionsReached", reached);
        List<Object> missing = new ArrayList<>();
        unreached().forEach(t -> missing.add(t.name()));
        json.put("transitionsUnreached", missing);
        Map<String, Object> quirks = new LinkedHashMap<>();
        quirkDepth.forEach((q, d) -> quirks.put(q.fix().name(), d));
        json.put("quirksSeen", quirks);
        if (violation != null) {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("check", violation.property().name());
            v.put("depth", violation.depth());
            v.put("message", violation.message());
            List<Object> ops = new ArrayList<>();
            violation.ops().forEach(op -> ops.add(op.toTraceLine()));
            v.put("ops", ops);
            json.put("violation", v);
        } else {
            json.put("violation", null);
        }
        return JsonWriter.write(json);
    }
}
