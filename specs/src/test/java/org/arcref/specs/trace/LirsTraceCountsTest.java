package org.arcref.specs.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import org.arcref.trace.TraceFormat;
import org.arcref.trace.TraceReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The LIRS readers parse the quirks of the repository's LIRS traces (breakpoint lines, an empty line, CRLF, no final
 * newline): each trace gives exactly the request and unique-block counts of {@code traces/README.md}.
 */
class LirsTraceCountsTest {

    @ParameterizedTest(name = "{0}: {1} requests, {2} unique blocks")
    @CsvSource({
        "2_pools, 100000, 9939",
        "backf,     9000,  751",
        "cpp,       9047, 1223",
        "cs,        6781, 1409",
        "gli,       6015, 2529",
        "loop,    505500, 1011",
        "multi1,   15858, 2606",
        "multi2,   26311, 5684",
        "multi3,   30241, 7454",
        "ps,       10448, 3083",
        "scan,     50025, 2001",
        "sprite,  133996, 7075",
        "zigzag,   52001, 2001",
    })
    void readerGivesPublishedRequestAndUniqueCounts(String name, int requests, int unique) {
        Path trace = SharedTraces.lirs(name);
        long[] pages = TraceReader.read(trace);
        assertEquals(TraceFormat.LIRS, TraceReader.detect(trace), "detected format of " + trace);
        assertEquals(requests, pages.length, "requests in " + trace);
        assertEquals(unique, Arrays.stream(pages).distinct().count(), "unique blocks in " + trace);
    }
}
