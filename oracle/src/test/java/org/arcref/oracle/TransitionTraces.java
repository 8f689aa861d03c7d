package org.arcref.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The hand-written transition tests' scenarios as op traces ({@code src/test/resources/transitions}, each naming
 * its test), by name.
 */
final class TransitionTraces {

    private TransitionTraces() {
    }

    /** @return each trace's text by its file name without {@code .ops}, in name order */
    static Map<String, String> all() {
        try {
            Path dir = Path.of(TransitionTraces.class.getResource("/transitions").toURI());
            Map<String, String> traces = new LinkedHashMap<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".ops")).sorted().toList()) {
                    traces.put(f.getFileName().toString().replaceFirst("\\.ops$", ""),
                            Files.readString(f, StandardCharsets.UTF_8));
                }
            }
            return traces;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
