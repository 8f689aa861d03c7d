package org.arcref.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A concurrent command's notice of the zthr priority mode: the JVM's default handler printed it as a two-line INFO
 * record at every run; now it appears only with {@code --verbose}, once, as one line ({@link Logging}).
 */
class LoggingTest {

    private static List<String> stderrOf(String... args) throws Exception {
        Process p = ArcProcess.builder(List.of(args)).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        return err.lines().toList();
    }

    @Test
    void theZthrNoticeAppearsOnlyWithVerboseAsOneLine() throws Exception {
        assertEquals(List.of(), stderrOf("replay", "--concurrent", "2", "--length", "2000", "--sizes", "100"));
        List<String> verbose = stderrOf("replay", "--concurrent", "2", "--length", "2000", "--sizes", "100,200",
                "--verbose");
        assertEquals(1, verbose.size(), verbose.toString());
        assertTrue(verbose.get(0).startsWith("arc: info: zthr priorities: "), verbose.toString());
    }
}
