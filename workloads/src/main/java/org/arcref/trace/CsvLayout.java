package org.arcref.trace;

import java.util.OptionalInt;

/**
 * Where the fields of a {@link CsvTrace} are, in the terms of libCacheSim's csv reader (its {@code -t} parameters
 * {@code obj-id-col}, {@code obj-size-col}, {@code time-col}, {@code has-header}, {@code delimiter}): columns are
 * numbered from 1, as libCacheSim numbers them.
 *
 * @param objIdColumn the 1-based column of the object id (the key)
 * @param objSizeColumn the 1-based column of the object size in bytes, if the trace has one
 * @param timeColumn the 1-based column of the time, if the trace has one
 * @param header whether the first data line is a header, to be skipped
 * @param delimiter the character between fields
 */
public record CsvLayout(int objIdColumn, OptionalInt objSizeColumn, OptionalInt timeColumn, boolean header,
        char delimiter) {

    /**
     * Checks the columns: each at least 1, no two the same; the delimiter is neither a line end nor a character
     * of numbers ({@code 0-9}, {@code -}, {@code .}).
     *
     * @throws IllegalArgumentException naming the parameter, the rule and the value
     */
    public CsvLayout {
        requireColumn("obj-id-col", objIdColumn);
        objSizeColumn.ifPresent(c -> requireColumn("obj-size-col", c));
        timeColumn.ifPresent(c -> requireColumn("time-col", c));
        if (objSizeColumn.isPresent() && objSizeColumn.getAsInt() == objIdColumn
                || timeColumn.isPresent() && timeColumn.getAsInt() == objIdColumn
                || objSizeColumn.isPresent() && objSizeColumn.equals(timeColumn)) {
            throw new IllegalArgumentException("obj-id-col, obj-size-col and time-col must be different columns, were "
                    + objIdColumn + ", " + text(objSizeColumn) + ", " + text(timeColumn));
        }
        if (delimiter == '\n' || delimiter == '\r' || delimiter >= '0' && delimiter <= '9' || delimiter == '-'
                || delimiter == '.') {
            throw new IllegalArgumentException("delimiter must not be a line end, a digit, - or ., was "
                    + Excerpt.of(String.valueOf(delimiter)));
        }
    }

    /** @return the highest column the layout names: a line must have at least this many fields */
    int columns() {
        return Math.max(objIdColumn, Math.max(objSizeColumn.orElse(0), timeColumn.orElse(0)));
    }

    private static void requireColumn(String name, int column) {
        if (column < 1) {
            throw new IllegalArgumentException(name + " must be >= 1 (columns are numbered from 1), was " + column);
        }
    }

    private static String text(OptionalInt column) {
        return column.isPresent() ? String.valueOf(column.getAsInt()) : "none";
    }
}
