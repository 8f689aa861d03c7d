package org.arcref.specs.bounded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.arcref.aggsum.AggSum;
import org.arcref.aggsum.AggSumLayout;
import org.arcref.aggsum.AggSumSlots;
import org.arcref.aggsum.SkippedBoundCheckAggSum;
import org.arcref.aggsum.StaleBoundCompareAggSum;
import org.arcref.aggsum.StoreAfterUnlockAggSum;
import org.arcref.property.Property;
import org.arcref.property.PropertyViolation;
import org.arcref.specs.bounded.Exhaustive.Bounded;
import org.arcref.specs.lincheck.ExploredSchedules;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A1-A5 on the real {@link AggSum} under Lincheck's model checker ({@link Exhaustive}): an adder thread and reader
 * threads on one bucket or two. Each read is checked against ghost sums kept in ignored sections (M1's oracle, all
 * deltas positive): an upper bound is at least the initial value plus the adds completed before the read began, a
 * lower bound at most the initial value plus the adds begun before it ended (A5); {@code value()} lies between the
 * two and {@code compare(x)} returns a sign some value between them gives (A4); at quiescence {@code value()} is
 * exact and both bounds equal it (A3, A4).
 *
 * <p>Every interleaving, the tree used up ({@link Exhaustive#exhaust}): a reader of both bounds against two adds,
 * on one bucket (two adds of 1: a slow path, then a fast one) and on two (an add of 1 on bucket 0 and of 40 on
 * bucket 1: a slow path on each). With two buckets a scenario thread adds from a fixed home slot
 * ({@link AggSumSlots}): the home bucket otherwise follows from the thread id, which changes with every invocation
 * (Lincheck reports that as non-determinism).
 *
 * <p>Every schedule up to a switch bound ({@link Exhaustive#upToSwitches}), for trees too large to use up: Lincheck
 * has no partial-order reduction, so two threads that each take a lock and write several fields interleave in
 * about C(a + b, a) ways for a and b switch points, where a bound read is one. Two adders sharing the bucket, one
 * reading the upper bound after (at most 3 switches); {@code compare} against an add (4); {@code value()} flushing
 * two buckets against an add (4). The same bounds refute {@link StoreAfterUnlockAggSum} (2.1.1's order), and
 * {@link StaleBoundCompareAggSum}; the exhaustive 2 × 2 bound refutes {@link SkippedBoundCheckAggSum}.
 *
 * <p>Behind {@code -Dbounded.large=true} ({@code docs/formal-models.md} has the figures): every other 2 × 2 of a
 * reader against an adder, on one bucket and on two, each tree used up; 2 × 3, three reads against three adds, to
 * 6 switches; and, with a budget of {@value #LARGE_BUDGET} invocations each and not yet run to the end, an add
 * between a lower- and an upper-bound reader (3 × 1), two adding threads, and {@code value()} against one or two
 * adds. Any number of buckets and threads is the Why3 proof's ({@code models/}).
 */
class AggSumExhaustiveTest {
    static final long INITIAL = 1000;
    /** More than any default tree (measured in docs/formal-models.md). */
    private static final int BUDGET = 5_000;
    /** The budget of the scenarios behind {@code -Dbounded.large=true}. */
    private static final int LARGE_BUDGET = 200_000;

    /** Ghost sums of the adds begun and completed in the current invocation; touched only in ignored sections. */
    private static final long[] GHOST = new long[2];

    /**
     * One operation of a scenario thread.
     *
     * @param name how the scenario prints it
     * @param added what it adds to the aggsum's value (0 for a read)
     * @param op the operation on the aggsum under test
     */
    record Op(String name, long added, Consumer<AggSum> op) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** {@code add(delta)} through the public entry point: with one bucket every thread's home is that bucket. */
    static Op add(long delta) {
        return adding("add(" + delta + ")", delta, sum -> sum.add(delta));
    }

    /** {@code add(delta)} as a thread whose home is bucket {@code bucket} of two ({@link AggSumSlots}). */
    static Op addOn(int bucket, long delta) {
        return adding("add(" + delta + ")@" + bucket, delta, sum -> AggSumSlots.add(sum, bucket, delta));
    }

    private static Op adding(String name, long delta, Consumer<AggSum> add) {
        return new Op(name, delta, sum -> {
            ExploredSchedules.ghost(() -> GHOST[0] += delta);
            add.accept(sum);
            ExploredSchedules.ghost(() -> GHOST[1] += delta);
        });
    }

    static final Op LOWER = new Op("lowerBound()", 0, sum -> {
        long lower = sum.lowerBound();
        long atMost = INITIAL + ExploredSchedules.ghost(() -> GHOST[0]);
        if (lower > atMost) {
            throw new PropertyViolation(Property.A5, "lower bound " + lower + " above " + atMost
                    + ", the value of every add begun", "");
        }
    });

    static final Op UPPER = new Op("upperBound()", 0, sum -> {
        long atLeast = INITIAL + ExploredSchedules.ghost(() -> GHOST[1]);
        long upper = sum.upperBound();
        if (Long.compareUnsigned(upper, atLeast) < 0) {
            throw new PropertyViolation(Property.A5, "upper bound " + upper + " below " + atLeast
                    + ", the value of the adds completed before the read", "");
        }
    });

    /** value(): exact, so between the adds completed before it began and those begun before it ended (A4). */
    static final Op VALUE = new Op("value()", 0, sum -> {
        long atLeast = INITIAL + ExploredSchedules.ghost(() -> GHOST[1]);
        long value = sum.value();
        long atMost = INITIAL + ExploredSchedules.ghost(() -> GHOST[0]);
        if (value < atLeast || value > atMost) {
            throw new PropertyViolation(Property.A4, "value() " + value + " outside [" + atLeast + ", " + atMost
                    + "], the adds completed before it and begun before it returned", "");
        }
    });

    /**
     * {@code compare(target)}: exact, so its sign is that of {@code V − target} for a V between the adds completed
     * before it began and those begun before it returned (A4; every delta is positive, so V only grows).
     */
    static Op compare(long target) {
        return new Op("compare(" + target + ")", 0, sum -> {
            long atLeast = INITIAL + ExploredSchedules.ghost(() -> GHOST[1]);
            int sign = sum.compare(target);
            long atMost = INITIAL + ExploredSchedules.ghost(() -> GHOST[0]);
            boolean allowed = sign < 0 ? atLeast < target : sign > 0 ? atMost > target
                    : atLeast <= target && target <= atMost;
            if (!allowed) {
                throw new PropertyViolation(Property.A4, "compare(" + target + ") " + sign + " but V is in ["
                        + atLeast + ", " + atMost + "], the adds completed before it and begun before it returned",
                        "");
            }
        });
    }

    /** Both reads against two adds of 1: the default 2 × 2 scenario. */
    private static final Scenario DEFAULT_2X2 = new Scenario(List.of(List.of(LOWER, UPPER), List.of(add(1), add(1))));

    /**
     * A scenario: the operations of each thread, the first run on the scenario's own thread, on an aggsum of
     * {@code buckets} buckets.
     */
    record Scenario(int buckets, List<List<Op>> threads) {
        /** A scenario on one bucket. */
        Scenario(List<List<Op>> threads) {
            this(1, threads);
        }

        @Override
        public String toString() {
            String ops = threads.stream().map(Object::toString).reduce((a, b) -> a + " | " + b).orElse("");
            return buckets == 1 ? ops : buckets + " buckets: " + ops;
        }

        long total() {
            return threads.stream().flatMap(List::stream).mapToLong(Op::added).sum();
        }
    }

    /**
     * Both reads against two adds, each a slow path of its own bucket: a reader's bounds must cover the borrows of
     * two buckets.
     */
    private static final Scenario TWO_BUCKETS_2X2 = new Scenario(2, List.of(List.of(LOWER, UPPER),
            List.of(addOn(0, 1), addOn(1, 40))));

    /** The default run's trees: the 2 × 2 scenario on one bucket and on two. */
    static Stream<Scenario> scenarios() {
        return Stream.of(DEFAULT_2X2, TWO_BUCKETS_2X2);
    }

    /** @return the scenario with its switch bound and the invocations that reach it, run by {@link #run} */
    private static Bounded<Scenario, Variant> bounded(Scenario scenario, int switches, int budget) {
        return new Bounded<>("aggsum", scenario, switches, budget, AggSumExhaustiveTest::run, () -> null);
    }

    /** Two adders sharing the bucket, one reading the upper bound after its add: M1's store-after-unlock trail. */
    static final Bounded<Scenario, Variant> TWO_ADDERS = bounded(new Scenario(List.of(List.of(add(1)),
            List.of(add(1), UPPER))), 3, 25);
    /** compare(), which reads both bounds, then takes the core lock and flushes, against a slow-path add. */
    static final Bounded<Scenario, Variant> COMPARE_VS_ADD = bounded(new Scenario(List.of(List.of(compare(INITIAL)),
            List.of(add(40)))), 4, 214);
    /** value() flushing two buckets against an add on the second. */
    static final Bounded<Scenario, Variant> VALUE_TWO_BUCKETS = bounded(new Scenario(2, List.of(List.of(VALUE),
            List.of(addOn(1, 1)))), 4, 112);

    /** The trees too large to use up, every schedule with at most their number of switches. */
    static Stream<Bounded<Scenario, Variant>> switchBounded() {
        return Stream.of(TWO_ADDERS, COMPARE_VS_ADD, VALUE_TWO_BUCKETS);
    }

    /**
     * 2 × 3 behind {@code -Dbounded.large=true}, every schedule with at most 6 switches (neither tree was used up
     * within 30,000 invocations): three bound reads against three adds, on one bucket and on two.
     */
    static Stream<Bounded<Scenario, Variant>> switchBoundedLarge() {
        return Stream.of(
                bounded(new Scenario(List.of(List.of(LOWER, UPPER, LOWER), List.of(add(1), add(1), add(1)))), 6,
                        14_286),
                bounded(new Scenario(2, List.of(List.of(LOWER, UPPER, UPPER),
                        List.of(addOn(0, 1), addOn(1, 40), addOn(0, 1)))), 6, 22_404));
    }

    /**
     * Every other 2 × 2 scenario of a reader of two bounds against an adder of two amounts (1 or 40: the first add
     * borrows 16, so 1 then 1 takes the fast path and 1 then 40 re-borrows): on one bucket, and on two with the adds
     * on different buckets.
     */
    static Stream<Scenario> otherTwoByTwo() {
        List<Scenario> all = new ArrayList<>();
        List<Op> reads = List.of(LOWER, UPPER);
        List<List<Op>> oneBucket = new ArrayList<>();
        for (long first : List.of(1L, 40L)) {
            for (long second : List.of(1L, 40L)) {
                oneBucket.add(List.of(add(first), add(second)));
            }
        }
        List<List<Op>> twoBuckets = List.of(List.of(addOn(0, 1), addOn(1, 40)), List.of(addOn(0, 40), addOn(1, 1)));
        for (Op r1 : reads) {
            for (Op r2 : reads) {
                oneBucket.forEach(adds -> all.add(new Scenario(1, List.of(List.of(r1, r2), adds))));
                twoBuckets.forEach(adds -> all.add(new Scenario(2, List.of(List.of(r1, r2), adds))));
            }
        }
        all.removeIf(scenario -> scenarios().anyMatch(s -> s.toString().equals(scenario.toString())));
        return all.stream();
    }

    /**
     * Trees not yet used up by any run: an add between a lower- and an upper-bound reader (3 × 1), two adders on one
     * bucket, and value() against one or two adds.
     */
    static Stream<Scenario> beyondTwoByTwo() {
        List<Scenario> all = new ArrayList<>();
        for (Op a : List.of(add(1), add(40))) {
            all.add(new Scenario(List.of(List.of(LOWER), List.of(a), List.of(UPPER))));
        }
        all.add(new Scenario(List.of(List.of(add(1)), List.of(add(40)))));
        all.add(new Scenario(List.of(List.of(VALUE), List.of(add(40)))));
        all.add(new Scenario(List.of(List.of(VALUE), List.of(add(1), add(40)))));
        return all.stream();
    }

    /** The aggsums under test: the real one and the broken variants of {@code concurrent}'s test sources. */
    enum Variant {
        REAL, SKIPPED_BOUND_CHECK, STORE_AFTER_UNLOCK, STALE_BOUND_COMPARE;

        /**
         * A new aggsum of this variant. A switch, not a method reference kept in the constant: Lincheck does not
         * analyse what such a reference, built outside the model checker, creates (the run then meets no switch
         * point, which {@link Exhaustive} refuses).
         */
        AggSum create(long initialValue, AggSumLayout layout) {
            return switch (this) {
                case REAL -> AggSum.create(initialValue, layout);
                case SKIPPED_BOUND_CHECK -> SkippedBoundCheckAggSum.create(initialValue, layout);
                case STORE_AFTER_UNLOCK -> StoreAfterUnlockAggSum.create(initialValue, layout);
                case STALE_BOUND_COMPARE -> StaleBoundCompareAggSum.create(initialValue, layout);
            };
        }
    }

    /** One invocation of {@code scenario} on {@code variant}. */
    static void run(Scenario scenario, Variant variant) {
        ExploredSchedules.count();
        ExploredSchedules.ghost(() -> {
            GHOST[0] = 0;
            GHOST[1] = 0;
            return null;
        });
        AggSum sum = variant.create(INITIAL, new AggSumLayout(scenario.buckets(), 0));
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
    @DisplayName("A1-A5: every interleaving of the real aggsum, a reader against an adder, one bucket and two")
    void everyInterleaving(Scenario scenario) {
        Exhaustive.exhaust("aggsum " + scenario, BUDGET, () -> run(scenario, Variant.REAL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("otherTwoByTwo")
    @DisplayName("A1-A5: every interleaving of the real aggsum, every other 2 x 2 (-Dbounded.large=true)")
    void everyInterleavingOtherTwoByTwo(Scenario scenario) {
        exhaustLarge(scenario);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("beyondTwoByTwo")
    @DisplayName("A1-A5: every interleaving of the real aggsum, 3 x 1, two adders, value() (-Dbounded.large=true)")
    @Timeout(value = 4, unit = TimeUnit.HOURS) // each ran past the module's default of 300 s
    void everyInterleavingBeyondTwoByTwo(Scenario scenario) {
        exhaustLarge(scenario);
    }

    /** A tree behind {@code -Dbounded.large=true}, used up within {@value #LARGE_BUDGET} invocations. */
    private static void exhaustLarge(Scenario scenario) {
        assumeTrue(Boolean.getBoolean("bounded.large"), "larger trees run with -Dbounded.large=true");
        Exhaustive.exhaust("aggsum " + scenario, LARGE_BUDGET, () -> run(scenario, Variant.REAL));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("switchBounded")
    @DisplayName("A1-A5: every schedule of the real aggsum up to the switch bound, two adders, compare, value")
    void upToTheSwitchBound(Bounded<Scenario, Variant> scenario) {
        scenario.check(Variant.REAL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("switchBoundedLarge")
    @DisplayName("A1-A5: every schedule of the real aggsum up to 6 switches, 2 x 3 (-Dbounded.large=true)")
    @Timeout(value = 1, unit = TimeUnit.HOURS) // 110 s and 185 s beside one other Lincheck run
    void upToTheSwitchBoundLarge(Bounded<Scenario, Variant> scenario) {
        assumeTrue(Boolean.getBoolean("bounded.large"), "larger trees run with -Dbounded.large=true");
        scenario.check(Variant.REAL);
    }

    @Test
    @DisplayName("A5: the same bound refutes 2.1.1's slow path, which stores the bounds after the bucket unlock")
    void refutesStoreAfterUnlock() {
        assertEquals(Property.A5, TWO_ADDERS.refute(Variant.STORE_AFTER_UNLOCK));
    }

    @Test
    @DisplayName("A4: the same bound refutes a compare that flushes from the bounds it read before the lock")
    void refutesStaleBoundCompare() {
        assertEquals(Property.A4, COMPARE_VS_ADD.refute(Variant.STALE_BOUND_COMPARE));
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
                () -> run(scenario, Variant.SKIPPED_BOUND_CHECK)));
        Property violated = ExploredSchedules.violationIn(failure).property();
        assertTrue(violated == Property.A4 || violated == Property.A5, failure.getMessage());
    }
}
