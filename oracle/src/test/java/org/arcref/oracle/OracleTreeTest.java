package org.arcref.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.arcref.exhaustive.Walk22;
import org.arcref.zfs.BufType;
import org.arcref.zfs.Operation;
import org.arcref.zfs.ReadKind;
import org.arcref.zfs.ZfsRelease;
import org.junit.jupiter.api.Test;

/**
 * {@code arc-oracle --tree} through {@link OracleTree}: the order of its lines with one job and with more, and how a
 * rejected operation ends the run.
 */
class OracleTreeTest {

    private static final Operation READ = new Operation.Read(0, 512, ReadKind.DEMAND, false, BufType.DATA);

    /** The root's three transitions, the first followed by two of its target's: five lines after the header. */
    private static final List<OracleTree.Transition> TREE = List.of(
            new OracleTree.Transition(0, 10, READ),
            new OracleTree.Transition(1, 11, new Operation.Tick(63)),
            new OracleTree.Transition(1, 12, READ),
            new OracleTree.Transition(0, 20, new Operation.Tick(63)),
            new OracleTree.Transition(0, 30, new Operation.Memory(0)));

    private static List<String> run(List<OracleTree.Transition> tree, int jobs, List<String> lines) {
        OracleTree.Ending end = OracleTree.run(Oracles.released(ZfsRelease.V2_2_0), "tree",
                OracleTree.text(Walk22.ciSettings(), tree), Map.of(), jobs, lines::add);
        assertEquals(0, end.status(), end.message());
        return lines;
    }

    /** @return a transition's line up to its {@code index} and {@code line} */
    private static String numbers(String line) {
        return line.substring(0, line.indexOf(",\"op\":"));
    }

    @Test
    void oneJobWritesTheTreesOrderAndMoreJobsTheSameLines() {
        List<String> one = run(TREE, 1, new ArrayList<>());
        assertEquals(List.of("{\"index\":1,\"line\":10", "{\"index\":2,\"line\":11", "{\"index\":2,\"line\":12",
                "{\"index\":1,\"line\":20", "{\"index\":1,\"line\":30"),
                one.subList(1, one.size()).stream().map(OracleTreeTest::numbers).toList());
        // a hit on the block the first transition read: the second read ran on the first one's state
        assertTrue(one.get(3).contains("\"outcome\":\"HIT_MRU\""), one.get(3));
        List<String> two = run(TREE, 2, new ArrayList<>());
        assertEquals(one.stream().sorted().toList(), two.stream().sorted().toList());
    }

    @Test
    void aRejectedOperationEndsTheRunNamingItsTransition() {
        List<String> lines = new ArrayList<>();
        OracleTree.Ending end = OracleTree.run(Oracles.released(ZfsRelease.V2_2_0), "tree",
                OracleTree.text(Walk22.ciSettings(), List.of(new OracleTree.Transition(0, 7, READ),
                        new OracleTree.Transition(1, 8, new Operation.Release(5)))), Map.of(), 1, lines::add);
        assertEquals(2, end.status(), end.message());
        assertTrue(end.message().startsWith("arc-oracle: tree:8: the oracle rejects \"release 5\""), end.message());
        assertEquals(2, lines.size(), "the header and transition 7's line: " + lines);
    }
}
