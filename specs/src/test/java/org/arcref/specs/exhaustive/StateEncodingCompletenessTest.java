package org.arcref.specs.exhaustive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.arcref.exhaustive.CanonicalState;
import org.arcref.exhaustive.ExhaustiveBounds;
import org.arcref.exhaustive.StateEncoding;
import org.arcref.exhaustive.StateKey;
import org.arcref.random.SplitMix64;
import org.arcref.zfs.AdjustableMemory;
import org.arcref.zfs.ArcArithmetic;
import org.arcref.zfs.ArcStat;
import org.arcref.zfs.Operation;
import org.arcref.zfs.Outcome;
import org.arcref.zfs.ZfsArc;
import org.junit.jupiter.api.Test;

/**
 * The state encoding is complete: two runs of the spec that reach the same encoding by different paths behave
 * identically on random continuations, with keys renamed through the encodings' renamings: the same outcomes (or
 * both reject), the same statistics increments (which the encoding leaves out) and the same encodings after every
 * step. Runs with one and with two sublists (key renaming within sublists, the scan-start generator), on the tiny
 * configuration with both block sizes and the low free-memory level.
 */
class StateEncodingCompletenessTest {

    private static final int WALKS = 4000;
    private static final int WALK_LENGTH = 7;
    private static final int CONTINUATION = 25;
    private static final int PAIRS = 400;

    @Test
    void runsWithEqualEncodingsBehaveAlikeWithOneSublist() {
        assertRunsWithEqualEncodingsBehaveAlike(ExhaustiveBounds.tiny(3, 1, false, 1, 2, true, true, Set.of(), 7, 1), 1);
    }

    @Test
    void runsWithEqualEncodingsBehaveAlikeWithTwoSublists() {
        assertRunsWithEqualEncodingsBehaveAlike(ExhaustiveBounds.tiny(4, 2, true, 1, 2, true, true, Set.of(), 7, 1), 2);
    }

    private static void assertRunsWithEqualEncodingsBehaveAlike(ExhaustiveBounds bounds, long seed) {
        List<Operation> alphabet = bounds.alphabet().operations();
        StateEncoding encoding = new StateEncoding(bounds.config());
        SplitMix64 random = new SplitMix64(seed);
        Map<StateKey, List<Operation>> firstPath = new HashMap<>();
        int pairs = 0;
        for (int w = 0; w < WALKS && pairs < PAIRS; w++) {
            List<Operation> path = new ArrayList<>();
            Sut sut = new Sut(bounds);
            for (int i = 0; i < WALK_LENGTH; i++) {
                Operation op = alphabet.get(random.nextIndex(alphabet.size()));
                if (sut.apply(op) != null) {
                    path.add(op);
                }
            }
            StateKey key = sut.encode(encoding).key();
            List<Operation> other = firstPath.putIfAbsent(key, path);
            if (other != null && !other.equals(path)) {
                pairs++;
                assertSameBehaviour(bounds, encoding, other, path, random);
            }
        }
        System.out.println("encoding completeness: " + pairs + " pairs of different paths to one encoding, each"
                + " continued by " + CONTINUATION + " random operations (" + bounds.config().sublists()
                + " sublists)");
        assertTrue(pairs >= 100, "the walks must meet often enough to test anything, met " + pairs + " times");
    }

    private static void assertSameBehaviour(ExhaustiveBounds bounds, StateEncoding encoding, List<Operation> pathA,
            List<Operation> pathB, SplitMix64 random) {
        Sut a = new Sut(bounds);
        Sut b = new Sut(bounds);
        pathA.forEach(a::apply);
        pathB.forEach(b::apply);
        List<Operation> alphabet = bounds.alphabet().operations();
        String where = "paths " + lines(pathA) + " and " + lines(pathB);
        for (int i = 0; i < CONTINUATION; i++) {
            Map<Long, Long> aToB = correspondence(bounds, a.encode(encoding), b.encode(encoding));
            Operation opA = alphabet.get(random.nextIndex(alphabet.size()));
            Operation opB = renamed(opA, aToB);
            long[] statsA = a.stats();
            long[] statsB = b.stats();
            Outcome outA = a.apply(opA);
            Outcome outB = b.apply(opB);
            String step = where + ", continued by " + opA.toTraceLine() + " / " + opB.toTraceLine();
            assertEquals(outA, outB, "outcome: " + step);
            assertEquals(a.encode(encoding).key(), b.encode(encoding).key(), "encoding: " + step);
            long[] deltaA = a.stats();
            long[] deltaB = b.stats();
            for (int s = 0; s < deltaA.length; s++) {
                assertEquals(deltaA[s] - statsA[s], deltaB[s] - statsB[s], ArcStat.values()[s] + ": " + step);
            }
        }
    }

    /**
     * The bijection of keys the two encodings imply: keys with the same canonical index in the same sublist
     * correspond; the keys neither state holds correspond in ascending order within their sublist.
     */
    private static Map<Long, Long> correspondence(ExhaustiveBounds bounds, CanonicalState a, CanonicalState b) {
        int sublists = bounds.config().sublists();
        Map<Long, Long> aToB = new HashMap<>();
        Map<String, Long> bByIndex = new HashMap<>();
        b.renaming().forEach((key, index) -> bByIndex.put(ArcArithmetic.sublistOf(key, sublists) + "/" + index, key));
        a.renaming().forEach((key, index) -> aToB.put(key,
                bByIndex.get(ArcArithmetic.sublistOf(key, sublists) + "/" + index)));
        for (int s = 0; s < sublists; s++) {
            List<Long> freeA = new ArrayList<>();
            List<Long> freeB = new ArrayList<>();
            for (long k = 0; k < bounds.alphabet().keys(); k++) {
                if (ArcArithmetic.sublistOf(k, sublists) == s) {
                    if (!a.renaming().containsKey(k)) {
                        freeA.add(k);
                    }
                    if (!b.renaming().containsKey(k)) {
                        freeB.add(k);
                    }
                }
            }
            for (int i = 0; i < freeA.size(); i++) {
                aToB.put(freeA.get(i), freeB.get(i));
            }
        }
        return aToB;
    }

    private static Operation renamed(Operation op, Map<Long, Long> keys) {
        if (op instanceof Operation.Read r) {
            return new Operation.Read(keys.get(r.key()), r.size(), r.kind(), r.hold());
        } else if (op instanceof Operation.Write w) {
            return new Operation.Write(keys.get(w.key()), w.size());
        } else if (op instanceof Operation.Complete c) {
            return new Operation.Complete(keys.get(c.key()), c.hold());
        } else if (op instanceof Operation.Release r) {
            return new Operation.Release(keys.get(r.key()));
        } else if (op instanceof Operation.Overwrite o) {
            return new Operation.Overwrite(keys.get(o.key()), keys.get(o.newKey()));
        } else if (op instanceof Operation.Free f) {
            return new Operation.Free(keys.get(f.key()));
        }
        return op;
    }

    private static String lines(List<Operation> ops) {
        return ops.stream().map(Operation::toTraceLine).toList().toString();
    }

    /** A spec with its adjustable memory. */
    private static final class Sut {
        final AdjustableMemory memory;
        final ZfsArc arc;

        Sut(ExhaustiveBounds bounds) {
            memory = new AdjustableMemory(bounds.initialFreeMemory());
            arc = new ZfsArc(bounds.config(), memory);
        }

        /** @return the outcome, or null if the spec rejected the operation */
        Outcome apply(Operation op) {
            try {
                return op.applyTo(arc);
            } catch (IllegalArgumentException | IllegalStateException e) {
                return null;
            }
        }

        CanonicalState encode(StateEncoding encoding) {
            return encoding.encode(arc, arc.snapshot(), memory.freeMemory());
        }

        long[] stats() {
            long[] s = new long[ArcStat.values().length];
            for (ArcStat stat : ArcStat.values()) {
                s[stat.ordinal()] = arc.stat(stat);
            }
            return s;
        }
    }
}
