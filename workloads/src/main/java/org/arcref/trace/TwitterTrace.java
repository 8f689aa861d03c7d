package org.arcref.trace;

import java.util.Arrays;
import java.util.Set;

/**
 * A key-value trace of Twitter's in-memory caches (twitter/cache-trace, Yang et al., OSDI'20): one request per line,
 * seven comma-separated fields, {@code timestamp,anonymized key,key size,value size,client id,operation,TTL}.
 *
 * <p>Contract: the key is read as text, exactly, and numbered densely by first appearance ({@link KeyNumbering});
 * each line is one request of its key's one page, whatever its operation: a read ({@code get}, {@code gets}) and
 * a write ({@code set}, {@code add}, {@code replace}, {@code cas}, {@code append}, {@code prepend}, {@code incr},
 * {@code decr}, {@code delete}) all touch the key. (A {@code delete} does not evict here: a page cache has no
 * removal by the user.) Sizes are validated and ignored, so cache sizes count objects. Since only the key can hold
 * a comma, a line of more than seven fields is read from both ends: the first field is the timestamp, the last
 * five are key size, value size, client id, operation and TTL, and the key is what lies between.
 *
 * <p>Rules, each failure naming the source, the line, the field and the value: at least seven fields; timestamp,
 * key size, value size and TTL non-negative ASCII decimals ({@link Decimal}); a non-empty key and client id; the
 * operation one of the eleven above, in lower case as the traces write it.
 */
final class TwitterTrace implements LineParser {

    /** The operations of the traces; every one is a request for its key. */
    static final Set<String> OPERATIONS = Set.of("get", "gets", "set", "add", "replace", "cas", "append", "prepend",
            "delete", "incr", "decr");

    /** The fields of a line whose key holds no comma. */
    static final int FIELDS = 7;

    private final String source;
    private final PageBuffer out;
    private final KeyNumbering keys = new KeyNumbering();

    TwitterTrace(String source, PageBuffer out) {
        this.source = source;
        this.out = out;
    }

    /**
     * @param fields the comma-separated fields of a line
     * @return whether they look like a line of this format: seven, an operation name sixth (a key holding a comma
     *     makes more fields: such a trace is read when named, not detected)
     */
    static boolean looksLike(String[] fields) {
        return fields.length == FIELDS && OPERATIONS.contains(fields[FIELDS - 2]);
    }

    @Override
    public void parse(String line, long lineNumber) {
        String[] f = Fields.split(line, ',');
        int n = f.length;
        if (n < FIELDS) {
            throw new TraceFormatException(source, lineNumber, "expected " + FIELDS + " comma-separated fields "
                    + "(timestamp,key,key size,value size,client id,operation,TTL), got " + n + " in "
                    + Excerpt.of(line));
        }
        Fields.nonNegative(f[0], "timestamp", source, lineNumber);
        String key = Fields.nonEmpty(String.join(",", Arrays.copyOfRange(f, 1, n - 5)), "the key", source,
                lineNumber);
        Fields.nonNegative(f[n - 5], "key size", source, lineNumber);
        Fields.nonNegative(f[n - 4], "value size", source, lineNumber);
        Fields.nonEmpty(f[n - 3], "client id", source, lineNumber);
        if (!OPERATIONS.contains(f[n - 2])) {
            throw new TraceFormatException(source, lineNumber, "operation must be one of get, gets, set, add, "
                    + "replace, cas, append, prepend, delete, incr, decr, was " + Excerpt.of(f[n - 2]));
        }
        Fields.nonNegative(f[n - 1], "TTL", source, lineNumber);
        out.addRange(keys.of(key), 1, source, lineNumber);
    }
}
