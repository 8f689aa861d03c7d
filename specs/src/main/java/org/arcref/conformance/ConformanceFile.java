package org.arcref.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.arcref.trace.TraceFile;
import org.arcref.trace.TraceFormatException;

/**
 * A conformance output read back whole ({@link ConformanceReader} reads one line at a time): every line
 * parsed as a JSON object, the first checked to be a header of this format and version. Errors name the
 * source and the 1-based line.
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
     * @throws UncheckedIOException naming the source if reading fails
     * @throws TraceFormatException naming the source and line of the first malformed line
     */
    public static ConformanceFile read(BufferedReader in, String source) {
        return collect(new ConformanceReader(in::readLine, source));
    }

    /**
     * @param texts the lines, without terminators
     * @param source the name used in error messages
     * @return the parsed file
     * @throws TraceFormatException naming the source and line of the first malformed line
     */
    public static ConformanceFile parse(List<String> texts, String source) {
        Iterator<String> it = texts.iterator();
        return collect(new ConformanceReader(() -> it.hasNext() ? it.next() : null, source));
    }

    private static ConformanceFile collect(ConformanceReader reader) {
        List<Map<String, Object>> lines = new ArrayList<>();
        lines.add(reader.header());
        for (Map<String, Object> line = reader.next(); line != null; line = reader.next()) {
            lines.add(line);
        }
        return new ConformanceFile(reader.source(), lines);
    }

    /** @return the header line */
    public Map<String, Object> header() {
        return lines.get(0);
    }
}
