package org.arcref.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.arcref.conformance.ConformanceTrace;

/** The text of the built-in conformance traces, as the oracle reads them (their SHA-256 is taken over it). */
final class BuiltinTraces {

    private BuiltinTraces() {
    }

    /**
     * @param name a built-in trace's name ({@link ConformanceTrace#builtinNames()})
     * @return its text
     */
    static String text(String name) {
        String resource = "/org/arcref/conformance/traces/" + name + ".ops";
        try (InputStream in = ConformanceTrace.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no built-in trace " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
