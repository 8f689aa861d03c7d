package org.arcref.specs.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.arcref.conformance.BehaviourRevision;
import org.arcref.conformance.ConformanceTrace;
import org.arcref.zfs.ZfsEngine;
import org.junit.jupiter.api.Test;

/**
 * The behaviour revisions: numbered 1, 2, ... per engine, each shown by one of that engine's built-in traces, and
 * each listed in {@code docs/porting.md}'s changelog with its trace.
 */
class BehaviourRevisionTest {

    @Test
    void eachEngineNumbersItsRevisionsFromOneWithoutGaps() {
        for (ZfsEngine e : ZfsEngine.values()) {
            List<BehaviourRevision> revisions = BehaviourRevision.of(e);
            for (int i = 0; i < revisions.size(); i++) {
                assertEquals(i + 1, revisions.get(i).number(), revisions.get(i).name());
                assertEquals(e, revisions.get(i).engine());
            }
            assertEquals(revisions.size(), BehaviourRevision.current(e));
        }
        assertEquals(5, BehaviourRevision.current(ZfsEngine.V2_1_1));
        assertEquals(2, BehaviourRevision.current(ZfsEngine.V2_2_0));
    }

    @Test
    void eachRevisionIsShownByABuiltinTraceOfItsEngine() {
        for (BehaviourRevision r : BehaviourRevision.values()) {
            assertTrue(ConformanceTrace.builtinNames(r.engine()).contains(r.trace()), r + ": " + r.trace());
        }
    }

    @Test
    void betweenGivesTheRevisionsAfterTheOlderUpToTheNewerInEitherOrder() {
        List<BehaviourRevision> expected = List.of(BehaviourRevision.ZFS_2_1_1_HASH_LOCKS,
                BehaviourRevision.ZFS_2_1_1_FIXES);
        assertEquals(expected, BehaviourRevision.between(ZfsEngine.V2_1_1, 3, 5));
        assertEquals(expected, BehaviourRevision.between(ZfsEngine.V2_1_1, 5, 3));
        assertEquals(List.of(), BehaviourRevision.between(ZfsEngine.V2_1_1, 4, 4));
        assertEquals(List.of(BehaviourRevision.ZFS_2_2_0_UNCACHED), BehaviourRevision.between(ZfsEngine.V2_2_0, 1, 9));
    }

    /** The changelog has a row per revision: the engine, the number and the trace. */
    @Test
    void portingGuidesChangelogListsEveryRevisionWithItsTrace() throws IOException {
        String doc = Files.readString(Path.of("..", "docs", "porting.md"));
        for (BehaviourRevision r : BehaviourRevision.values()) {
            String row = "| " + r.engine().version() + " | " + r.number() + " |";
            int at = doc.indexOf(row);
            assertTrue(at >= 0, "docs/porting.md's changelog has no row starting " + row);
            String line = doc.substring(at, doc.indexOf('\n', at));
            assertTrue(line.contains("`" + r.trace() + "`"), "the row of " + r + " names `" + r.trace() + "`: " + line);
        }
    }
}
