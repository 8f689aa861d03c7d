package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.explore.CheckKind;
import org.arcref.explore.Explorer;
import org.arcref.zfs.ZfsEngine;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * The server runs many traces in one worker process, ending each ARC with arc_fini and starting the next with
 * arc_init (oracle_arc_fini, oracle_arc_init); a process per trace ({@code arc-oracle TRACE}) is the reference for
 * "a fresh ARC". On the built-in traces and on 150 random traces of the oracle campaign, one after the other through
 * one server, every line (every header listed) equals that of a fresh process.
 */
class OracleServerEquivalenceTest {

    @Test
    void aServedTraceWritesWhatAFreshProcessWrites() throws IOException, InterruptedException {
        List<String[]> traces = new ArrayList<>();
        for (String name : ConformanceTrace.builtinNames()) {
            if (!name.equals("quirk-adapt-multiply")) { // 16 MiB buffers: its own test runs it
                traces.add(new String[] {"builtin:" + name, BuiltinTraces.text(name)});
            }
        }
        for (long t = 0; t < 150; t++) {
            long seed = Explorer.trySeed(RandomOracleCampaignTest.SEED, t);
            traces.add(new String[] {"random-" + t, Explorer.tryOf(CheckKind.ORACLE, ZfsEngine.V2_1_1, seed).text()});
        }
        try (OracleProcess server = OracleProcess.start(Oracles.released(ZfsRelease.V2_1_1))) {
            for (String[] trace : traces) {
                OracleOutput served = server.run(trace[0], trace[1], true);
                assertEquals(OracleOutput.Ending.OK, served.ending(), trace[0] + ": " + served.message());
                assertEquals(fresh(trace[0], trace[1]), served.lines(), trace[0]);
            }
        }
    }

    private static List<String> fresh(String name, String text) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(Oracles.released(ZfsRelease.V2_1_1).toString(), "--headers", "--name", name, "-")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), name + ": exit status");
        return out.lines().toList();
    }
}
