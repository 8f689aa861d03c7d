package org.arcref.conformance;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares conformance lines field by field. Within a line the fields of the expected line are visited in their
 * order, depth first, then the fields only the actual line has; each field whose value differs, that the actual
 * line lacks or that only the actual line has is a {@link Divergence}, and so is each missing or extra element of
 * a list. Numbers are equal when their values are ({@code 10} and {@code 1e1} are equal); all other values must
 * be equal as JSON values, types included.
 *
 * <p>A {@link FieldFilter} leaves fields out. The header's {@code trace} (a path, relative to where the output was
 * written) is never compared: the trace is identified by {@code trace_sha256}, so the same run written to another
 * folder matches. Nor is its {@code revision}: it is what the output claims, and the lines show what it does
 * ({@link ConformanceVerifier} notes revisions that differ). An element of a list that is an object with a {@code key} and a {@code state} (an entry of
 * {@code headers}) is labelled with both, {@code headers[4] (key 17, mfu).arc_access}, since its index alone
 * does not say which buffer header it is.
 */
public final class ConformanceComparer {

    /** A header field that is not compared: the trace's path. */
    public static final String TRACE_PATH = "trace";

    private ConformanceComparer() {
    }

    /**
     * @param expected the reference output
     * @param actual the output to check
     * @return the first divergence, or empty when the outputs are equal
     */
    public static Optional<Divergence> firstDivergence(ConformanceFile expected, ConformanceFile actual) {
        return firstDivergence(expected, actual, 0);
    }

    /**
     * @param expected the reference output
     * @param actual the output to check
     * @return the first divergence in the operation lines (the headers are not compared), or empty
     */
    public static Optional<Divergence> firstOperationDivergence(ConformanceFile expected, ConformanceFile actual) {
        return firstDivergence(expected, actual, 1);
    }

    private static Optional<Divergence> firstDivergence(ConformanceFile expected, ConformanceFile actual, int from) {
        List<Map<String, Object>> e = expected.lines();
        List<Map<String, Object>> a = actual.lines();
        for (int i = from; i < Math.max(e.size(), a.size()); i++) {
            if (i >= a.size()) {
                return Optional.of(new Divergence(i + 1, "", JsonWriter.write(e.get(i)), Divergence.ABSENT));
            }
            if (i >= e.size()) {
                return Optional.of(new Divergence(i + 1, "", Divergence.ABSENT, JsonWriter.write(a.get(i))));
            }
            List<Divergence> d = differences(i + 1, e.get(i), a.get(i), FieldFilter.ALL);
            if (!d.isEmpty()) {
                return Optional.of(d.get(0));
            }
        }
        return Optional.empty();
    }

    /**
     * @param line the 1-based line both lines are on (1 for the headers)
     * @param expected the expected line
     * @param actual the actual line
     * @param filter the fields compared
     * @return every compared field where the lines differ, in the order described above; empty when they agree
     */
    public static List<Divergence> differences(long line, Map<String, Object> expected, Map<String, Object> actual,
            FieldFilter filter) {
        List<Divergence> out = new ArrayList<>();
        compare(line, "", "", expected, actual, filter, out);
        return out;
    }

    private static void compare(long line, String shown, String bare, Object e, Object a, FieldFilter filter,
            List<Divergence> out) {
        if (e instanceof Map<?, ?> em && a instanceof Map<?, ?> am) {
            for (Map.Entry<?, ?> f : em.entrySet()) {
                String b = join(bare, (String) f.getKey());
                if (visited(line, b, filter)) {
                    String p = join(shown, (String) f.getKey());
                    if (!am.containsKey(f.getKey())) {
                        out.add(new Divergence(line, p, text(f.getValue()), Divergence.ABSENT));
                    } else {
                        compare(line, p, b, f.getValue(), am.get(f.getKey()), filter, out);
                    }
                }
            }
            for (Map.Entry<?, ?> f : am.entrySet()) {
                String b = join(bare, (String) f.getKey());
                if (!em.containsKey(f.getKey()) && visited(line, b, filter)) {
                    out.add(new Divergence(line, join(shown, (String) f.getKey()), Divergence.ABSENT,
                            text(f.getValue())));
                }
            }
        } else if (e instanceof List<?> el && a instanceof List<?> al) {
            for (int i = 0; i < Math.max(el.size(), al.size()); i++) {
                Object x = i < el.size() ? el.get(i) : al.get(i);
                String p = shown + "[" + i + "]" + label(x);
                if (i >= al.size()) {
                    out.add(new Divergence(line, p, text(el.get(i)), Divergence.ABSENT));
                } else if (i >= el.size()) {
                    out.add(new Divergence(line, p, Divergence.ABSENT, text(al.get(i))));
                } else {
                    compare(line, p, bare, el.get(i), al.get(i), filter, out);
                }
            }
        } else if (isNumber(e) && isNumber(a) ? decimal(e).compareTo(decimal(a)) != 0 : !Objects.equals(e, a)) {
            out.add(new Divergence(line, shown, text(e), text(a)));
        }
    }

    private static boolean visited(long line, String bare, FieldFilter filter) {
        return !(line == 1 && (bare.equals(TRACE_PATH) || bare.equals(ConformanceFormat.REVISION)))
                && (filter.compares(bare) || filter.descends(bare));
    }

    private static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static String label(Object element) {
        return element instanceof Map<?, ?> m && m.containsKey("key") && m.containsKey("state")
                ? " (key " + text(m.get("key")) + ", " + (m.get("state") instanceof String s ? s : text(m.get("state")))
                        + ")"
                : "";
    }

    private static boolean isNumber(Object v) {
        return v instanceof BigInteger || v instanceof BigDecimal;
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof BigInteger i ? new BigDecimal(i) : (BigDecimal) v;
    }

    private static String text(Object v) {
        return JsonWriter.write(v);
    }
}
