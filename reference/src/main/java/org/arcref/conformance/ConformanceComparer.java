package org.arcref.conformance;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Compares two conformance outputs line by line and finds the first divergence. Within a line the
 * fields of the expected line are visited in their order, depth first; a field the expected line has
 * and the actual one lacks, or the reverse, is a divergence, and so is a list of another length.
 * Numbers are equal when their values are ({@code 10} and {@code 1e1} are equal); all other values
 * must be equal as JSON values, types included.
 */
public final class ConformanceComparer {

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
            Optional<Divergence> d = compare(i + 1, "", e.get(i), a.get(i));
            if (d.isPresent()) {
                return d;
            }
        }
        return Optional.empty();
    }

    private static Optional<Divergence> compare(long line, String path, Object e, Object a) {
        if (e instanceof Map<?, ?> em && a instanceof Map<?, ?> am) {
            for (Map.Entry<?, ?> f : em.entrySet()) {
                String p = path.isEmpty() ? (String) f.getKey() : path + "." + f.getKey();
                if (!am.containsKey(f.getKey())) {
                    return Optional.of(new Divergence(line, p, text(f.getValue()), Divergence.ABSENT));
                }
                Optional<Divergence> d = compare(line, p, f.getValue(), am.get(f.getKey()));
                if (d.isPresent()) {
                    return d;
                }
            }
            for (Map.Entry<?, ?> f : am.entrySet()) {
                if (!em.containsKey(f.getKey())) {
                    String p = path.isEmpty() ? (String) f.getKey() : path + "." + f.getKey();
                    return Optional.of(new Divergence(line, p, Divergence.ABSENT, text(f.getValue())));
                }
            }
            return Optional.empty();
        }
        if (e instanceof List<?> el && a instanceof List<?> al) {
            for (int i = 0; i < Math.max(el.size(), al.size()); i++) {
                String p = path + "[" + i + "]";
                if (i >= al.size()) {
                    return Optional.of(new Divergence(line, p, text(el.get(i)), Divergence.ABSENT));
                }
                if (i >= el.size()) {
                    return Optional.of(new Divergence(line, p, Divergence.ABSENT, text(al.get(i))));
                }
                Optional<Divergence> d = compare(line, p, el.get(i), al.get(i));
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        if (isNumber(e) && isNumber(a)) {
            return decimal(e).compareTo(decimal(a)) == 0 ? Optional.empty()
                    : Optional.of(new Divergence(line, path, text(e), text(a)));
        }
        return Objects.equals(e, a) ? Optional.empty() : Optional.of(new Divergence(line, path, text(e), text(a)));
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
