package org.arcref.exhaustive;

import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceSettings;
import org.arcref.conformance.Setting;
import org.arcref.property.Property;
import org.arcref.zfs.Operation;
import org.arcref.zfs.QuirkFix;

/**
 * A transition that broke a check, with the shortest path to it: breadth-first exploration reaches every state
 * first by one of its shortest paths, so {@code ops} (the path, then the failing operation) is a shortest
 * counterexample.
 *
 * @param property the property that broke: an invariant ({@code R1} … {@code R13}), {@code B1} (a rejection that
 *     changed a state or that only one ARC made, or the spec threw something other than a rejection), {@code D1},
 *     {@code N1}, {@code L1} or {@code X1} (a quirk's effect with its fix applied)
 * @param message the check's message
 * @param ops the operations from the empty ARC, the last one failing
 */
public record Violation(Property property, String message, List<Operation> ops) {

    /** Copies the operations. */
    public Violation {
        ops = List.copyOf(ops);
    }

    /** @return the number of operations up to and including the failing one */
    public int depth() {
        return ops.size();
    }

    /** @return the first line of the message */
    public String firstLine() {
        return message.lines().findFirst().orElse("");
    }

    /**
     * The counterexample as an op trace that {@code arc conform} replays under the explored configuration: its
     * settings as {@code # conform:} lines, the fixes as a comment naming the {@code --fix} options, then one
     * operation per line.
     *
     * @param bounds the bounds explored
     * @return the trace's lines
     */
    public List<String> toTrace(ExhaustiveBounds bounds) {
        ConformanceSettings settings = new ConformanceSettings(bounds.config(), bounds.initialFreeMemory());
        List<String> lines = new ArrayList<>();
        lines.add("# arc explore --exhaustive: " + property + " failed at depth " + depth() + ": " + firstLine());
        StringBuilder fixes = new StringBuilder();
        for (QuirkFix fix : bounds.config().fixes()) {
            fixes.append(" --fix ").append(fix.name());
        }
        lines.add("# replay: arc conform FILE" + fixes);
        for (Setting s : Setting.values()) {
            if (!s.appliesTo(settings.engine())) {
                continue;
            }
            long v = s.get(settings);
            String text = switch (s.kind()) {
                case BOOLEAN -> v != 0 ? "true" : "false";
                case U64 -> Long.toUnsignedString(v);
                default -> Long.toString(v);
            };
            lines.add("# conform: " + s.zfsName() + "=" + text);
        }
        ops.forEach(op -> lines.add(op.toTraceLine()));
        return lines;
    }
}
