package org.arcref.trace;

import java.util.regex.Pattern;

/**
 * A key-value trace in delimited text, as libCacheSim's csv reader reads it ({@link CsvLayout}): one request per
 * line, the object id in one column, optionally the object size and the time in others; the first data line is a
 * header to skip when the layout says so.
 *
 * <p>Contract: the object id field is the key, as text, exactly (not unquoted, not stripped; {@code 7} and
 * {@code 07} are two keys); keys are numbered densely by first appearance ({@link KeyNumbering}), and each line is
 * one request of its key's one page. The size, when its column is given, must be a non-negative ASCII decimal
 * ({@link Decimal}) and is then ignored: every object is one page, so cache sizes count objects (libCacheSim's
 * {@code --ignore-obj-size 1}). The time, when its column is given, must be a non-negative decimal, with an optional
 * fraction ({@code 12.5}), and is ignored too. A line with fewer fields than the highest column named, or an empty
 * key, is an error; so is every malformed size or time, each naming the source, the line, the column and the value.
 */
final class CsvTrace implements LineParser {

    /** A non-negative decimal in ASCII digits, with an optional fraction. */
    private static final Pattern TIME = Pattern.compile("[0-9]+(\\.[0-9]+)?");

    private final CsvLayout layout;
    private final String source;
    private final PageBuffer out;
    private final KeyNumbering keys = new KeyNumbering();
    private boolean headerSkipped;

    CsvTrace(CsvLayout layout, String source, PageBuffer out) {
        this.layout = layout;
        this.source = source;
        this.out = out;
        this.headerSkipped = !layout.header();
    }

    @Override
    public void parse(String line, long lineNumber) {
        if (!headerSkipped) {
            headerSkipped = true;
            return;
        }
        String[] fields = Fields.split(line, layout.delimiter());
        if (fields.length < layout.columns()) {
            throw new TraceFormatException(source, lineNumber, "expected at least " + layout.columns() + " fields "
                    + "separated by " + Excerpt.of(String.valueOf(layout.delimiter())) + ", got " + fields.length
                    + " in " + Excerpt.of(line));
        }
        String key = Fields.nonEmpty(fields[layout.objIdColumn() - 1], "the object id (column "
                + layout.objIdColumn() + ")", source, lineNumber);
        layout.objSizeColumn().ifPresent(c -> Fields.nonNegative(fields[c - 1], "the object size (column " + c + ")",
                source, lineNumber));
        layout.timeColumn().ifPresent(c -> requireTime(fields[c - 1], c, lineNumber));
        out.addRange(keys.of(key), 1, source, lineNumber);
    }

    private void requireTime(String text, int column, long lineNumber) {
        if (!TIME.matcher(text).matches()) {
            throw new TraceFormatException(source, lineNumber, "the time (column " + column + ") must be a "
                    + "non-negative decimal number, was " + Excerpt.of(text));
        }
    }
}
