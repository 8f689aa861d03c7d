package org.arcref.specs.bounded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.aggsum.SkippedBoundCheckAggSum;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A1-A5 on the real {@link AggSum}, every interleaving ({@link Exhaustive}) of each scenario: one bucket shared by an
 * adder thread and reader threads. In the default run: two adds of 1 against a reader of both bounds (2 × 2). Each read
 * is checked against ghost sums kept in ignored sections (M1's oracle, all deltas positive): an upper bound is at least
 * the initial value plus the adds completed before the read began, a lower bound at most the initial value plus the
 * adds begun before it ended (A5); at quiescence {@code value()} is exact and both bounds equal it (A3, A4).
 *
 * <p>Behind {@code -Dbounded.large=true}, because their trees take longer than the default run's minutes (measured in
 * {@code docs/formal-models.md}), with a budget of {@value #LARGE_BUDGET} invocations each: the other 2 × 2 scenarios
 * (adds of 1 or 40, the first borrowing 16, so 1 then 1 takes the fast path and 1 then 40 re-borrows, against two bound
 * reads), an add of 1 or 40 between a lower- and an upper-bound reader (3 × 1), whose tree passed 5,000 invocations,
 * two adding threads, whose tree passed 20,000 interleavings at 1 × 1, and {@code value()}, which takes the core lock
 * and flushes, against an add. Not at all: two buckets, whose home bucket follows from the thread id, which changes
 * with every invocation (Lincheck reports that as non-determinism). Any number of buckets and threads is the Why3
 * proof's ({@code models/}).
 */
class AggSumExhaustiveTest {
    static final long INITIAL = 1000;
    /** More than any default tree (measured in docs/formal-models.md). */
    private static final int BUDGET = 5_000;
    /** The budget of the scenarios behind {@code -Dbounded.large=true}. */
    private static final int LARGE_BUDGET = 200_000;

    /** Ghost sums of the adds begun and completed in the current invocation; touched only in ignored sections. */
    private static final long[] GHOST = new long[2];

    /** One operation of a scenario thread. */
    record Op(String name, BiFunctionless op) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** An operation on the aggsum under test. */
    @FunctionalInterface
    interface BiFunctionless extends Consumer<AggSum> {
    }

    static Op add(long delta) {
        return new Op("add(" + delta + ")", sum -> {
            ExploredSchedules.ghost(() -> GHOST[0] += delta);
            sum.add(delta);
            ExploredSchedules.ghost(() -> GHOST[1] += delta);
        });
    }

    static final Op LOWER = new Op("lowerBound()", sum -> {
        long lower = sum.lowerBound();
        long atMost = INITIAL + ExploredSchedules.ghost(() -> GHOST[0]);
        if (lower > atMost) {
            throw new PropertyViolation(Property.A5, "lower bound " + lower + " above " + atMost
                    + ", the value of every add begun", "");
        }
    });

    static final Op UPPER = new Op("upperBound()", sum -> {
        long atLeast = INITIAL + ExploredSchedules.ghost(() -> GHOST[1]);
        long upper = sum.upperBound();
        if (Long.compareUnsigned(upper, atLeast) < 0) {
            throw new PropertyViolation(Property.A5, "upper bound " + upper + " below " + atLeast
                    + ", the value of the adds completed before the read", "");
        }
    });

    /** value(): exact, so between the adds completed before it began and those begun before it ended (A4). */
    static final Op VALUE = new Op("value()", sum -> {
        long atLeast = INITIAL + ExploredSchedules.ghost(() -> GHOST[1]);
        long value = sum.value();
        long atMost = INITIAL + ExploredSchedules.ghost(() -> GHOST[0]);
        if (value < atLeast || value > atMost) {
            throw new PropertyViolation(Property.A4, "value() " + value + " outside [" + atLeast + ", " + atMost
                    + "], the adds completed before it and begun before it returned", "");
        }
    });

    /** Both reads against two adds of 1: the default 2 × 2 scenario. */
    private static final Scenario DEFAULT_2X2 = new Scenario(List.of(List.of(LOWER, UPPER), List.of(add(1), add(1))));

    /** A scenario: the operations of each thread; the first runs on the scenario's own thread. */
    record Scenario(List<List<Op>> threads) {
        @Override
        public String toString() {
            return threads.stream().map(Object::toString).reduce((a, b) -> a + " | " + b).orElse("");
        }

        long total() {
            return threads.stream().flatMap(List::stream).filter(op -> op.name().startsWith("add"))
                    .mapToLong(op -> Long.parseLong(op.name().replaceAll("\\D", ""))).sum();
        }
    }

    /** The default run's: two adds of 1 against a reader of both bounds. */
    static Stream<Scenario> scenarios() {
        return Stream.of(DEFAULT_2X2);
    }

    /**
     * The trees the default run cannot use up in its minutes: the other 2 × 2 scenarios, an add between a lower- and
     * an upper-bound reader (3 × 1), two adders on one bucket, and value() against an add.
     */
    static Stream<Scenario> largeScenarios() {
        List<Scenario> all = new ArrayList<>();
        List<Op> adds = List.of(add(1), add(40));
        List<Op> reads = List.of(LOWER, UPPER);
        for (Op a1 : adds) {
            for (Op a2 : adds) {
                for (Op r1 : reads) {
                    for (Op r2 : reads) {
                        Scenario scenario = new Scenario(List.of(List.of(r1, r2), List.of(a1, a2)));
                        if (!scenario.toString().equals(DEFAULT_2X2.toString())) {
                            all.add(scenario);
                        }
                    }
                }
            }
        }
        for (Op a : adds) {
            all.add(new Scenario(List.of(List.of(LOWER), List.of(a), List.of(UPPER))));
        }
        all.add(new Scenario(List.of(List.of(add(1)), List.of(add(40)))));
        all.add(new Scenario(List.of(List.of(VALUE), List.of(add(40)))));
        all.add(new Scenario(List.of(List.of(VALUE), List.of(add(1), add(40)))));
        return all.stream();
    }

    /** One invocation of {@code scenario} on the aggsum {@code factory} builds. */
    static void run(Scenario scenario, BiFunction<Long, AggSumLayout, AggSum> factory) {
        ExploredSchedules.count();
        ExploredSchedules.ghost(() -> {
            GHOST[0] = 0;
            GHOST[1] = 0;
            return null;
        });
        AggSum sum = factory.apply(INITIAL, AggSumLayout.singleBucket());
        List<Thread> others = new ArrayList<>();
        PropertyViolation[] found = new PropertyViolation[1];
        for (List<Op> ops : scenario.threads().subList(1, scenario.threads().size())) {
            Thread thread = new Thread(() -> {
                try {
                    ops.forEach(op -> op.op().accept(sum));
                } catch (PropertyViolation e) {
                    found[0] = e;
                }
            });
            others.add(thread);
            thread.start();
        }
        scenario.threads().get(0).forEach(op -> op.op().accept(sum));
        for (Thread thread : others) { // a loop, not a method reference, which Lincheck would not instrument
            Exhaustive.join(thread);
        }
        if (found[0] != null) {
            throw found[0];
        }
        long expected = INITIAL + scenario.total();
        long value = sum.value();
        if (value != expected || sum.lowerBound() != expected || sum.upperBound() != expected) {
            throw new PropertyViolation(Property.A4, "at quiescence value=" + value + ", lower=" + sum.lowerBound()
                    + ", upper=" + sum.upperBound() + ", expected " + expected + " (A3: the bounds meet)", "");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    @DisplayName("A1-A5: every interleaving of the real aggsum, one bucket")
    void everyInterleaving(Scenario scenario) {
        Exhaustive.exhaust("aggsum " + scenario, BUDGET, () -> run(scenario, (v, l) -> AggSum.create(v, l)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("largeScenarios")
    @DisplayName("A1-A5: every interleaving of the real aggsum, two adders or value() (-Dbounded.large=true)")
    void everyInterleavingLarge(Scenario scenario) {
        assumeTrue(Boolean.getBoolean("bounded.large"), "larger trees run with -Dbounded.large=true");
        Exhaustive.exhaust("aggsum " + scenario, LARGE_BUDGET, () -> run(scenario, (v, l) -> AggSum.create(v, l)));
    }

    /**
     * Whichever schedule Lincheck meets first decides which property fails: A5 where a read follows an add that
     * stayed in the unborrowed bucket, A4 where the reads come first (the flush skips a bucket without a borrow, so
     * the adds are lost from {@code value()}).
     */
    @Test
    @DisplayName("A4/A5: the same bound refutes a fast path that skips the borrow check")
    void refutesSkippedBoundCheck() {
        Scenario scenario = new Scenario(List.of(List.of(UPPER, UPPER), List.of(add(1), add(40))));
        AssertionError failure = assertThrows(AssertionError.class, () -> Exhaustive.exhaust(
                "aggsum " + scenario + " on SkippedBoundCheckAggSum", BUDGET,
                () -> run(scenario, (v, l) -> SkippedBoundCheckAggSum.create(v, l))));
        Property violated = ExploredSchedules.violationIn(failure).property();
        assertTrue(violated == Property.A4 || violated == Property.A5, failure.getMessage());
    }
}
