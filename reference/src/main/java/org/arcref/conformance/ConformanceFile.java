package org.arcref.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.arcref.trace.Excerpt;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;

/**
 * A conformance output read back: every line parsed as a JSON object, the first checked to be a
 * header of this format and version. Errors name the source and the 1-based line.
 *
 * @param source the file name or other description, for messages
 * @param lines the parsed lines: the header, then one per operation
 */
public record ConformanceFile(String source, List<Map<String, Object>> lines) {

    /** Copies the list. */
    public ConformanceFile {
        lines = List.copyOf(lines);
    }

    /**
     * @param path a conformance file, plain or gzip
     * @return its lines
     * @throws UncheckedIOException if it cannot be read
     * @throws TraceFormatException naming the file and line of the first malformed line
     */
    public static ConformanceFile read(Path path) {
        try (BufferedReader in = TraceFile.open(path, "conformance file")) {
            return read(in, path.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(TraceFile.problem("conformance file", path.toString(), e), e);
        }
    }

    /**
     * @param in the text of a conformance file, read once to its end
     * @param source the name used in error messages
     * @return its lines
     * @throws IOException if reading fails
     * @throws TraceFormatException naming the source and line of the first malformed line
     */
    public static ConformanceFile read(BufferedReader in, String source) throws IOException {
        List<String> texts = new ArrayList<>();
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            texts.add(line);
        }
        return parse(texts, source);
    }

    /**
     * @param texts the lines, without terminators
     * @param source the name used in error messages
     * @return the parsed file
     * @throws TraceFormatException naming the source and line of the first malformed line
     */
    @SuppressWarnings("unchecked")
    public static ConformanceFile parse(List<String> texts, String source) {
        if (texts.isEmpty()) {
            throw new TraceFormatException(source, 1, "the file is empty; expected a header line with \"format\":\""
                    + ConformanceFormat.NAME + "\"");
        }
        List<Map<String, Object>> lines = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            Object v;
            try {
                v = JsonParser.parse(texts.get(i));
            } catch (IllegalArgumentException e) {
                throw new TraceFormatException(source, i + 1, "not JSON: " + e.getMessage());
            }
            if (!(v instanceof Map<?, ?> m)) {
                throw new TraceFormatException(source, i + 1, "each line must be a JSON object, was "
                        + Excerpt.clip(JsonWriter.write(v), Excerpt.MAX_CHARS));
            }
            lines.add((Map<String, Object>) m);
        }
        Map<String, Object> header = lines.get(0);
        if (!ConformanceFormat.NAME.equals(header.get("format"))) {
            throw new TraceFormatException(source, 1, "the header's \"format\" must be \"" + ConformanceFormat.NAME
                    + "\", was " + describe(header.get("format")));
        }
        if (!BigInteger.valueOf(ConformanceFormat.VERSION).equals(header.get("version"))) {
            throw new TraceFormatException(source, 1, "the header's \"version\" must be " + ConformanceFormat.VERSION
                    + " (the version this tool reads), was " + describe(header.get("version")));
        }
        return new ConformanceFile(source, lines);
    }

    /** @return the header line */
    public Map<String, Object> header() {
        return lines.get(0);
    }

    private static String describe(Object value) {
        return value == null ? "absent or null" : Excerpt.clip(JsonWriter.write(value), Excerpt.MAX_CHARS);
    }
}
